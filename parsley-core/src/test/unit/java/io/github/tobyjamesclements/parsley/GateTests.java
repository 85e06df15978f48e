package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.HeldRecord.Diagnosis.HELD_UPSTREAM;
import static io.github.tobyjamesclements.parsley.HeldRecord.Diagnosis.NOT_FETCHED;
import static io.github.tobyjamesclements.parsley.HeldRecord.Diagnosis.SENDER_BEHIND;
import static io.github.tobyjamesclements.parsley.HeldRecord.Diagnosis.SENDER_UNSEEN;
import static io.github.tobyjamesclements.parsley.NodeRig.C;
import static io.github.tobyjamesclements.parsley.NodeRig.D;
import static io.github.tobyjamesclements.parsley.NodeRig.E;
import static io.github.tobyjamesclements.parsley.NodeRig.TOPIC_S;
import static io.github.tobyjamesclements.parsley.NodeRig.U;
import static io.github.tobyjamesclements.parsley.NodeRig.V;
import static io.github.tobyjamesclements.parsley.NodeRig.X;
import static io.github.tobyjamesclements.parsley.NodeRig.clock;
import static io.github.tobyjamesclements.parsley.NodeRig.record;
import static io.github.tobyjamesclements.parsley.NodeRig.seq;
import static io.github.tobyjamesclements.parsley.NodeRig.tagged;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The delivery gate and its diagnosis (protocol.md §3.2, §13.3). */
class GateTests {

    private static final Set<Channel> CONSUMED = Set.of(C, D, E);
    /** The same channels as the node hands them to the gate: its cascade order. */
    private static final Channel[] CONSUMED_ORDER = {C, D, E};

    private final Map<Channel, Long> frontier = new TreeMap<>();
    private final Map<SeqKey, ProtocolStore.Mark> marks = new TreeMap<>();
    private final Map<Channel, Long> positions = new TreeMap<>();

    private boolean deliverable(VectorClock claims) {
        return Gate.deliverable(C, claims, CONSUMED_ORDER, frontierClock(), marks);
    }

    private List<Gate.Unmet> unmet(VectorClock claims) {
        return Gate.unmet(C, claims, CONSUMED, frontierClock(), marks, positions);
    }

    /** The frontier as the node keeps it, an offset clock. */
    private VectorClock frontierClock() {
        VectorClock clock = new VectorClock();
        frontier.forEach(clock::advanceTo);
        return clock;
    }

    // deliverable -------------------------------------------------------------------------

    @Test
    void emptyClockIsDeliverable() {
        assertThat(deliverable(clock())).isTrue();
    }

    @Test
    void offsetClaimOnTheOwnChannelIsIgnoredWhateverItsValue() {
        assertThat(deliverable(clock().advanceTo(C, Long.MAX_VALUE))).isTrue();
    }

    @Test
    void sequenceClaimOnTheOwnChannelIsIgnoredWhateverItsValue() {
        assertThat(deliverable(clock().advanceSeq(seq(C, U), 1_000))).isTrue();
    }

    @Test
    void offsetClaimOnAnUnconsumedChannelImposesNoWait() {
        assertThat(deliverable(clock().advanceTo(X, 50))).isTrue();
    }

    @Test
    void sequenceClaimOnAnUnconsumedChannelImposesNoWait() {
        assertThat(deliverable(clock().advanceSeq(seq(X, U), 50))).isTrue();
    }

    @Test
    void aClaimOnAnEqualInstanceOfAConsumedChannelMustBeMet() {
        // a claim decoded from a header names a channel by value, not by the node's own instance
        Channel sameAsD = new Channel(D.topicId(), D.partition());
        frontier.put(D, 4L);

        assertThat(deliverable(clock().advanceTo(sameAsD, 5))).isFalse();
        assertThat(deliverable(clock().advanceTo(sameAsD, 4))).isTrue();
        assertThat(deliverable(clock().advanceSeq(new SeqKey(sameAsD, U), 0))).isFalse();
    }

    @Test
    void consumesFindsAChannelByValueAndNothingElse() {
        assertThat(Gate.consumes(CONSUMED_ORDER, new Channel(E.topicId(), E.partition()))).isTrue();
        assertThat(Gate.consumes(CONSUMED_ORDER, C)).isTrue();
        assertThat(Gate.consumes(CONSUMED_ORDER, new Channel(C.topicId(), C.partition() + 7))).as("another partition")
                .isFalse();
        assertThat(Gate.consumes(CONSUMED_ORDER, new Channel(TOPIC_S, C.partition()))).as("another topic").isFalse();
        assertThat(Gate.consumes(new Channel[0], C)).isFalse();
    }

    @Test
    void offsetClaimIsMetByAFrontierEqualToIt() {
        frontier.put(D, 4L);

        assertThat(deliverable(clock().advanceTo(D, 4))).isTrue();
    }

    @Test
    void offsetClaimIsNotMetByAFrontierBelowIt() {
        frontier.put(D, 4L);

        assertThat(deliverable(clock().advanceTo(D, 5))).isFalse();
    }

    @Test
    void offsetClaimOnOffsetZeroIsNotMetByAnAbsentFrontier() {
        assertThat(deliverable(clock().advanceTo(D, 0))).isFalse();
    }

    @Test
    void sequenceClaimIsMetByAMarkEqualToIt() {
        marks.put(seq(D, U), new ProtocolStore.Mark(3, 0));

        assertThat(deliverable(clock().advanceSeq(seq(D, U), 3))).isTrue();
    }

    @Test
    void sequenceClaimIsNotMetByAMarkBelowIt() {
        marks.put(seq(D, U), new ProtocolStore.Mark(3, 90));

        assertThat(deliverable(clock().advanceSeq(seq(D, U), 4))).isFalse();
    }

    @Test
    void sequenceClaimIsNotMetWithoutAMark() {
        frontier.put(D, 100L);

        assertThat(deliverable(clock().advanceSeq(seq(D, U), 0))).isFalse();
    }

    @Test
    void sequenceClaimIsNotMetByAnotherSendersMark() {
        marks.put(seq(D, V), new ProtocolStore.Mark(9, 0));

        assertThat(deliverable(clock().advanceSeq(seq(D, U), 0))).isFalse();
    }

    @Test
    void everyClaimMustBeMet() {
        frontier.put(D, 4L);
        marks.put(seq(E, U), new ProtocolStore.Mark(3, 0));

        assertThat(deliverable(clock().advanceTo(D, 4).advanceSeq(seq(E, U), 3))).isTrue();
        assertThat(deliverable(clock().advanceTo(D, 4).advanceTo(E, 0).advanceSeq(seq(E, U), 3))).isFalse();
        assertThat(deliverable(clock().advanceTo(D, 4).advanceSeq(seq(E, U), 3).advanceSeq(seq(E, V), 0))).isFalse();
    }

    @Test
    void unmetOffsetClaimAfterAMetOneStillHolds() {
        frontier.put(C, 10L);
        frontier.put(D, 10L);

        assertThat(deliverable(clock().advanceTo(D, 1).advanceTo(E, 1))).isFalse();
    }

    // unmet (diagnosis) -------------------------------------------------------------------

    @Test
    void claimOnAnOffsetNotYetFetchedIsDiagnosedNotFetched() {
        frontier.put(D, 2L);
        positions.put(D, 5L);

        assertThat(unmet(clock().advanceTo(D, 5)))
                .containsExactly(new Gate.Unmet(NOT_FETCHED, D, null, 5, 2));
    }

    @Test
    void claimOnAChannelWithNoKnownPositionIsDiagnosedNotFetched() {
        assertThat(unmet(clock().advanceTo(D, 0)))
                .containsExactly(new Gate.Unmet(NOT_FETCHED, D, null, 0, VectorClock.NOTHING));
    }

    @Test
    void claimOnAFetchedButUndeliveredOffsetIsDiagnosedHeldUpstream() {
        frontier.put(D, 2L);
        positions.put(D, 6L);

        assertThat(unmet(clock().advanceTo(D, 5)))
                .containsExactly(new Gate.Unmet(HELD_UPSTREAM, D, null, 5, 2));
    }

    @Test
    void sequenceClaimOfASenderNeverDeliveredIsDiagnosedSenderUnseen() {
        assertThat(unmet(clock().advanceSeq(seq(D, U), 4)))
                .containsExactly(new Gate.Unmet(SENDER_UNSEEN, D, U, 4, VectorClock.NOTHING));
    }

    @Test
    void sequenceClaimAboveTheSendersMarkIsDiagnosedSenderBehind() {
        marks.put(seq(D, U), new ProtocolStore.Mark(3, 40));

        assertThat(unmet(clock().advanceSeq(seq(D, U), 4)))
                .containsExactly(new Gate.Unmet(SENDER_BEHIND, D, U, 4, 3));
    }

    @Test
    void metOwnChannelAndUnconsumedClaimsAreNotDiagnosed() {
        frontier.put(D, 5L);
        marks.put(seq(E, U), new ProtocolStore.Mark(4, 0));

        VectorClock claims = clock().advanceTo(C, 99).advanceTo(D, 5).advanceTo(X, 99)
                .advanceSeq(seq(C, U), 99).advanceSeq(seq(E, U), 4).advanceSeq(seq(X, U), 99);

        assertThat(unmet(claims)).isEmpty();
    }

    @Test
    void everyUnmetClaimIsCollectedOffsetsFirst() {
        frontier.put(D, 1L);
        positions.put(E, 3L);
        marks.put(seq(D, V), new ProtocolStore.Mark(0, 0));

        VectorClock claims = clock().advanceTo(D, 2).advanceTo(E, 7)
                .advanceSeq(seq(D, U), 1).advanceSeq(seq(D, V), 2);

        assertThat(unmet(claims)).containsExactly(
                new Gate.Unmet(NOT_FETCHED, D, null, 2, 1),
                new Gate.Unmet(NOT_FETCHED, E, null, 7, VectorClock.NOTHING),
                new Gate.Unmet(SENDER_UNSEEN, D, U, 1, VectorClock.NOTHING),
                new Gate.Unmet(SENDER_BEHIND, D, V, 2, 0));
    }

    // Whole-topic claims (§3.9) -------------------------------------------------------------

    /** Partition 1 of C's topic: with C, two consumed partitions of one topic. */
    private static final Channel C1 = new Channel(C.topicId(), 1);
    private static final Channel WHOLE_C = Channel.wholeTopic(C.topicId());
    private static final Channel[] TWO_OF_C = {C, C1, D};

    /** The gate for a head at offset 12 of {@code own}, without probes. */
    private boolean deliverableAt(Channel own, VectorClock claims, Channel... consumed) {
        return Gate.deliverable(own, 12, claims, consumed, frontierClock(), marks, Gate.Probed.NONE);
    }

    @Test
    void aWholeTopicClaimIsMetByTheSendersMarksOnEveryConsumedPartitionOfItsTopic() {
        marks.put(seq(C, U), new ProtocolStore.Mark(5, 0));
        marks.put(seq(C1, U), new ProtocolStore.Mark(7, 3));
        VectorClock claims = clock().advanceSeq(seq(WHOLE_C, U), 5);

        assertThat(deliverableAt(D, claims, TWO_OF_C)).isTrue();
        assertThat(Gate.deliverable(D, claims, TWO_OF_C, frontierClock(), marks)).as("the gate without probes").isTrue();
    }

    @Test
    void aWholeTopicClaimIsUnmetWhereAConsumedPartitionsMarkIsBelowItOrAbsent() {
        marks.put(seq(C, U), new ProtocolStore.Mark(5, 0));
        marks.put(seq(C1, U), new ProtocolStore.Mark(4, 3));
        VectorClock claims = clock().advanceSeq(seq(WHOLE_C, U), 5);

        assertThat(deliverableAt(D, claims, TWO_OF_C)).as("C1's mark is below it").isFalse();
        assertThat(Gate.deliverable(D, claims, TWO_OF_C, frontierClock(), marks)).isFalse();
        marks.remove(seq(C1, U));
        assertThat(deliverableAt(D, claims, TWO_OF_C)).as("no mark on C1").isFalse();
        marks.put(seq(C1, V), new ProtocolStore.Mark(9, 3));
        assertThat(deliverableAt(D, claims, TWO_OF_C)).as("another sender's mark").isFalse();
    }

    @Test
    void aWholeTopicClaimIsIgnoredOnTheHeadsOwnChannel() {
        marks.put(seq(C1, U), new ProtocolStore.Mark(5, 3));
        VectorClock claims = clock().advanceSeq(seq(WHOLE_C, U), 5);

        assertThat(deliverableAt(C, claims, TWO_OF_C)).as("C, the own channel, has no mark").isTrue();
        assertThat(deliverableAt(C, claims, C, D)).as("the topic's only consumed partition is the own channel").isTrue();
        assertThat(deliverableAt(C1, claims, TWO_OF_C)).as("C has none, and is not C1's own").isFalse();
    }

    @Test
    void aWholeTopicClaimOnAnUnconsumedTopicImposesNoWait() {
        assertThat(deliverableAt(C, clock().advanceSeq(seq(Channel.wholeTopic(X.topicId()), U), 50), TWO_OF_C)).isTrue();
        assertThat(deliverable(clock().advanceSeq(seq(Channel.wholeTopic(X.topicId()), U), 50))).isTrue();
    }

    @Test
    void aProbeDecidesOnlyThePartitionsTheMarksLeaveOpenAndNamesTheHead() {
        marks.put(seq(C, U), new ProtocolStore.Mark(5, 0));
        List<String> asked = new java.util.ArrayList<>();
        Gate.Probed yes = (partition, sender, seq, own, offset) -> {
            asked.add(partition + " " + sender + " " + seq + " " + own + " " + offset);
            return true;
        };
        VectorClock claims = clock().advanceSeq(seq(WHOLE_C, U), 5);

        assertThat(Gate.deliverable(D, 12, claims, TWO_OF_C, frontierClock(), marks, yes)).isTrue();
        assertThat(asked).containsExactly(C1 + " " + U + " 5 " + D + " 12");
        assertThat(Gate.deliverable(D, 12, claims, TWO_OF_C, frontierClock(), marks, Gate.Probed.NONE)).isFalse();
    }

    @Test
    void aWholeTopicClaimIsDiagnosedOnEachConsumedPartitionOfItsTopicButTheOwn() {
        marks.put(seq(C1, U), new ProtocolStore.Mark(3, 1));
        VectorClock claims = clock().advanceSeq(seq(WHOLE_C, U), 5);
        Set<Channel> consumed = new java.util.TreeSet<>(List.of(C, C1, D));

        assertThat(Gate.unmet(D, claims, consumed, frontierClock(), marks, positions)).containsExactly(
                new Gate.Unmet(SENDER_UNSEEN, C, U, 5, VectorClock.NOTHING),
                new Gate.Unmet(SENDER_BEHIND, C1, U, 5, 3));
        assertThat(Gate.unmet(C, claims, consumed, frontierClock(), marks, positions)).containsExactly(
                new Gate.Unmet(SENDER_BEHIND, C1, U, 5, 3));
    }

    // explainHeads (§13.3) ----------------------------------------------------------------

    @Test
    void explainHeadsDescribesEachHeldHeadWithItsUnmetClaims() {
        CausalNode node = new NodeRig().consumes(C, D, E).sinks(TOPIC_S).start();
        node.onRecord(record(C, 4, clock().advanceTo(D, 2)));
        node.onRecord(record(C, 5));
        node.onRecord(record(D, 2, clock().advanceSeq(seq(E, U), 0)));
        node.onRecord(tagged(E, 0, V, 0, clock().advanceTo(D, 2)));
        node.onRecord(tagged(E, 1, U, 3, null));

        assertThat(node.explainHeads()).containsExactly(
                new Gate.HeadExplanation(C, 4, 2, List.of(new Gate.Unmet(HELD_UPSTREAM, D, null, 2, 1))),
                new Gate.HeadExplanation(D, 2, 1, List.of(new Gate.Unmet(SENDER_UNSEEN, E, U, 0, -1))),
                new Gate.HeadExplanation(E, 0, 2, List.of(new Gate.Unmet(HELD_UPSTREAM, D, null, 2, 1))));
    }

    @Test
    void explainHeadsIsEmptyWhenNothingIsHeld() {
        CausalNode node = new NodeRig().consumes(C, D).sinks(TOPIC_S).start();
        node.onRecord(record(C, 0));

        assertThat(node.explainHeads()).isEmpty();
    }

    @Test
    void explainHeadsDiagnosesAClaimOnTheLastFetchedPositionAsNotFetched() {
        CausalNode node = new NodeRig().consumes(C, D).sinks(TOPIC_S).start();
        node.onRecord(record(C, 0, clock().advanceTo(D, 3)));
        node.positionAdvance(D, 3);

        assertThat(node.explainHeads()).containsExactly(
                new Gate.HeadExplanation(C, 0, 1, List.of(new Gate.Unmet(NOT_FETCHED, D, null, 3, 2))));
    }

    @Test
    void explainHeadsDiagnosesASenderBehind() {
        CausalNode node = new NodeRig().consumes(C, D).sinks(TOPIC_S).start();
        node.onRecord(tagged(D, 0, U, 1, null));
        node.onRecord(record(C, 0, clock().advanceSeq(seq(D, U), 2)));

        assertThat(node.explainHeads()).containsExactly(
                new Gate.HeadExplanation(C, 0, 1, List.of(new Gate.Unmet(SENDER_BEHIND, D, U, 2, 1))));
    }

    /** A restored head whose claims a rescope made moot has nothing unmet: it releases on the next cascade. */
    @Test
    void explainHeadsOmitsAHeadWithNoUnmetClaim() {
        NodeRig rig = new NodeRig().consumes(C, D, E).sinks(TOPIC_S);
        rig.start().onRecord(record(C, 0, clock().advanceTo(E, 0)));
        CausalNode node = rig.consumes(C, D).start();

        assertThat(node.held(C)).isEqualTo(1);
        assertThat(node.explainHeads()).isEmpty();
        assertThat(node.onRecord(record(D, 0))).extracting(Delivery::channel).containsExactly(D, C);
    }
}
