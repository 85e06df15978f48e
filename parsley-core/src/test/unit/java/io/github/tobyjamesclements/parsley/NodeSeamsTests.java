package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.NodeRig.C;
import static io.github.tobyjamesclements.parsley.NodeRig.D;
import static io.github.tobyjamesclements.parsley.NodeRig.X;
import static io.github.tobyjamesclements.parsley.NodeRig.at;
import static io.github.tobyjamesclements.parsley.NodeRig.clock;
import static io.github.tobyjamesclements.parsley.NodeRig.coordinates;
import static io.github.tobyjamesclements.parsley.NodeRig.record;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The node consults each of its seams at the point the protocol decides, so a planted fault
 * changes exactly that decision; the simulator's planted faults rely on it, and these pin it
 * without running a world. The honest outcome of each scenario is in {@code CausalNodeTests}.
 */
class NodeSeamsTests {

    private final NodeRig rig = new NodeRig().consumes(C, D);

    private CausalNode start(NodeSeams seams) {
        return new CausalNode(rig.config(), rig.store, rig.broker, Map.of(), seams);
    }

    @Test
    void refusedPositionIsNotRememberedForTheDrain() {
        CausalNode honest = rig.start();
        CausalNode refusing = new CausalNode(new NodeRig().consumes(C, D).config(), new TestStateStore(),
                new TestBrokerOffsets(), Map.of(), new Faults.DropRememberedPositions());
        for (CausalNode node : new CausalNode[] {honest, refusing}) {
            node.onRecord(record(C, 0, clock().advanceTo(D, 0)));
            node.positionAdvance(C, 5);
            node.onRecord(record(D, 0));
        }

        assertThat(honest.frontier(C)).isEqualTo(4);
        assertThat(refusing.frontier(C)).isZero();
    }

    @Test
    void clockFoldedAtDeliveryReachesTheChannelClockWhenTheNextCallStarts() {
        CausalNode node = start(new Faults.FoldAtDelivery());

        assertThat(node.onRecord(record(C, 0, clock().advanceTo(X, 3)))).hasSize(1);
        assertThat(node.state().channelClocks().get(C).isEmpty()).isTrue();

        node.positionAdvance(D, 0);

        assertThat(node.state().channelClocks().get(C)).isEqualTo(clock().advanceTo(X, 3));

        node.onRecord(record(C, 1, clock().advanceTo(X, 5)));
        node.onRecord(record(D, 0));

        assertThat(node.state().channelClocks().get(C)).isEqualTo(clock().advanceTo(X, 5));
    }

    @Test
    void deliverySeamSeesTheEntryBehindTheHeadAndTheGate() {
        CausalNode node = start(new Faults.OutOfFifo());
        node.onRecord(record(C, 0, clock().advanceTo(D, 0)));
        node.onRecord(record(C, 1));

        assertThat(coordinates(node.onRecord(record(D, 0)))).containsExactly(at(D, 0), at(C, 1), at(C, 0));
    }

    @Test
    void deliverySeamDeliversOneHeadWhenTheGateHoldsTheNext() {
        CausalNode node = start(new Faults.OutOfFifo());
        node.onRecord(record(C, 0, clock().advanceTo(D, 0)));
        node.onRecord(record(C, 1, clock().advanceTo(D, 5)));

        assertThat(coordinates(node.onRecord(record(D, 0)))).containsExactly(at(D, 0), at(C, 0));
        assertThat(node.heldHead(C)).isEqualTo(1);
    }
}
