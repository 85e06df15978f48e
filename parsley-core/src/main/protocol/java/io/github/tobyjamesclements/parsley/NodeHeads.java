package io.github.tobyjamesclements.parsley;

/**
 * A node's hold-queue heads as its delivery seam sees them ({@link NodeSeams#deliver}): reads go
 * to the node's state, the verdict to the node's (seamed) gate.
 */
record NodeHeads(CausalNode node) implements NodeSeams.Heads {

    @Override
    public HeldEntry head(Channel c) {
        return node.state().head(c);
    }

    @Override
    public HeldEntry behindHead(Channel c) {
        return node.state().behindHead(c);
    }

    @Override
    public boolean deliverable(Channel c, HeldEntry entry) {
        return node.deliverable(c, entry);
    }

    @Override
    public Delivery deliverHead(Channel c) {
        return node.state().deliverHead(c);
    }
}
