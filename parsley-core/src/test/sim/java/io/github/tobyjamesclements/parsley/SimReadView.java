package io.github.tobyjamesclements.parsley;

import java.util.BitSet;

/**
 * The reference host's read view of one stateful node (what {@code ReadView} is to a Streams task,
 * protocol.md §17.1). The node's state is a fold over every record it delivered: the set of their
 * oracle ids. The fold is staged with the node's transaction and committed with it; the committed
 * fold is durable (a changelog), so a restart on empty state restores it.
 *
 * <p>The snapshot of what the state reflects ({@link ReadSnapshot}) is prepared at the pre-commit
 * persist together with the fold as it stands, and becomes readable only when the commit succeeds;
 * an abort or a crash drops it and closes the view until the node is initialised again over its
 * restored state. When the snapshot becomes readable and which value a read returns are the
 * installed {@link Fault}'s decisions (honestly: at the commit, the committed value).
 */
final class SimReadView {

    /** What the last commit made readable: its snapshot, the fold it belongs to and the incarnation that made it. */
    record Published(ReadSnapshot snapshot, BitSet value, int incarnation) {
    }

    private final Fault fault;
    private BitSet committed = new BitSet();
    private BitSet staged = new BitSet();
    private ReadSnapshot prepared;
    private BitSet preparedValue;
    private Published published;
    private int incarnation;

    SimReadView(Fault fault) {
        this.fault = fault;
    }

    /** The node was initialised over restored state: its snapshot and the committed fold are readable. */
    void open(ReadSnapshot restored, int incarnation) {
        this.incarnation = incarnation;
        staged = (BitSet) committed.clone();
        prepared = null;
        published = new Published(restored, (BitSet) committed.clone(), incarnation);
    }

    /** The node delivered record {@code id} in the open transaction. */
    void folded(long id) {
        staged.set((int) id);
    }

    /** The pre-commit persist: the snapshot and fold the coming commit makes durable. */
    void prepare(ReadSnapshot snapshot) {
        prepared = snapshot;
        preparedValue = (BitSet) staged.clone();
        if (fault.publishesAtPrepare()) {
            published = new Published(snapshot, preparedValue, incarnation);
        }
    }

    /** The transaction committed: the fold is durable and the prepared snapshot readable. */
    void committed() {
        committed = (BitSet) staged.clone();
        if (prepared != null) {
            published = new Published(prepared, preparedValue, incarnation);
            prepared = null;
            preparedValue = null;
        }
    }

    /** The transaction aborted (a crash): nothing prepared survives and the view answers no reads. */
    void close() {
        staged = (BitSet) committed.clone();
        prepared = null;
        preparedValue = null;
        published = null;
    }

    /** The last commit's snapshot and value, or null while the view is closed. */
    Published lastCommit() {
        return published;
    }

    /** The value a read answered from {@code p} returns: the commit's, or, under a fault, the store's now. */
    BitSet value(Published p) {
        return fault.readsStoreValue() ? (BitSet) staged.clone() : p.value();
    }

    /** The committed fold: what a restart restores. */
    BitSet committedValue() {
        return (BitSet) committed.clone();
    }
}
