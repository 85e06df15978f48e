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
import java.util.Set;
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

    @Test
    void aSequenceClaimNoMarkMeetsIsMetByAFrontierPastTheEndOffsetReadAfterTheToken() {
        // a stage that joined C after sender U's records there (a later deployment, from the log
        // end): it never delivers them, so it has no mark of U, only a frontier past them
        CausalNode node = rig.committed(C, 5).committed(D, 0).start();
        // the token of a read of another stage that delivered U's record with sequence 3 on C
        VectorClock token = clock().advanceTo(C, 4).advanceSeq(seq(C, U), 3);

        ReadSnapshot snapshot = node.readSnapshot();

        assertThat(snapshot.probesWanted(token)).isEqualTo(Set.of(C));
        assertThat(snapshot.unmet(token, Map.of(C, 5L))).isEmpty();
        // an end offset above the frontier: what U sent may still be coming
        assertThat(snapshot.unmet(token, Map.of(C, 7L))).extracting(Gate.Unmet::sender).containsExactly(U);
        assertThat(snapshot.unmet(token, Map.of())).extracting(Gate.Unmet::sender).containsExactly(U);
    }
}
