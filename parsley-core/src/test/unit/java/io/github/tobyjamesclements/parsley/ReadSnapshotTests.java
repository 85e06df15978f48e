package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.NodeRig.C;
import static io.github.tobyjamesclements.parsley.NodeRig.D;
import static io.github.tobyjamesclements.parsley.NodeRig.U;
import static io.github.tobyjamesclements.parsley.NodeRig.X;
import static io.github.tobyjamesclements.parsley.NodeRig.clock;
import static io.github.tobyjamesclements.parsley.NodeRig.record;
import static io.github.tobyjamesclements.parsley.NodeRig.seq;
import static io.github.tobyjamesclements.parsley.NodeRig.tagged;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The snapshot a read of a node's state is answered from (protocol.md §17): what the token of an
 * answer says the state reflects, and the read gate that restricts a token to the consumed
 * channels and then asks the snapshot to dominate it.
 */
class ReadSnapshotTests {

    private final NodeRig rig = new NodeRig().consumes(C, D);

    @Test
    void whatAStateReflectsNamesTheCausesOfItsRecordsOnChannelsTheNodeDoesNotConsume() {
        CausalNode node = rig.start();
        // a payment on C, written after its writer saw record 5 of X, which this node does not consume
        node.onRecord(record(C, 0, clock().advanceTo(X, 5)));

        VectorClock reflects = node.readSnapshot().reflects();

        // a session that read this state saw the payment, so the order it followed is in its past:
        // a later read of a node consuming X must wait for it
        assertThat(reflects.offset(C)).isEqualTo(0);
        assertThat(reflects.offset(X)).isEqualTo(5);
    }

    @Test
    void aStateMeetsWhatItReflectsSoAReadWithItsOwnAnswerIsAnsweredAtOnce() {
        CausalNode node = rig.start();
        node.onRecord(tagged(C, 0, U, 3, clock().advanceTo(X, 5)));
        // held: it claims D's record 2, not delivered yet; what it claims is not what the state reflects
        node.onRecord(record(C, 1, clock().advanceTo(D, 2).advanceSeq(seq(X, U), 9)));
        node.onRecord(record(D, 0));

        ReadSnapshot snapshot = node.readSnapshot();

        assertThat(snapshot.unmet(snapshot.reflects(), Map.of())).isEmpty();
        assertThat(snapshot.reflects().offset(D)).isEqualTo(0);
        assertThat(snapshot.reflects().seq(seq(C, U))).isEqualTo(3);
    }

    @Test
    void aTokensClaimsOnChannelsTheNodeDoesNotConsumeAreNotAskedOfIt() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0));

        ReadSnapshot snapshot = node.readSnapshot();

        assertThat(snapshot.unmet(clock().advanceTo(X, 40).advanceTo(C, 0), Map.of())).isEmpty();
        assertThat(snapshot.unmet(clock().advanceTo(X, 40).advanceTo(C, 1), Map.of()))
                .extracting(Gate.Unmet::channel).containsExactly(C);
    }
}
