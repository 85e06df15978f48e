package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.NodeRig.C;
import static io.github.tobyjamesclements.parsley.NodeRig.D;
import static io.github.tobyjamesclements.parsley.NodeRig.E;
import static io.github.tobyjamesclements.parsley.NodeRig.S0;
import static io.github.tobyjamesclements.parsley.NodeRig.S1;
import static io.github.tobyjamesclements.parsley.NodeRig.SELF;
import static io.github.tobyjamesclements.parsley.NodeRig.T0;
import static io.github.tobyjamesclements.parsley.NodeRig.TOPIC_S;
import static io.github.tobyjamesclements.parsley.NodeRig.TOPIC_T;
import static io.github.tobyjamesclements.parsley.NodeRig.TOPIC_X;
import static io.github.tobyjamesclements.parsley.NodeRig.TOPIC_Y;
import static io.github.tobyjamesclements.parsley.NodeRig.U;
import static io.github.tobyjamesclements.parsley.NodeRig.V;
import static io.github.tobyjamesclements.parsley.NodeRig.X;
import static io.github.tobyjamesclements.parsley.NodeRig.at;
import static io.github.tobyjamesclements.parsley.NodeRig.clock;
import static io.github.tobyjamesclements.parsley.NodeRig.coordinates;
import static io.github.tobyjamesclements.parsley.NodeRig.record;
import static io.github.tobyjamesclements.parsley.NodeRig.seq;
import static io.github.tobyjamesclements.parsley.NodeRig.stamped;
import static io.github.tobyjamesclements.parsley.NodeRig.tagged;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The stamp: composition, sequence numbers and normalisation (protocol.md §6, §9.4). */
class StampingTests {

    private final NodeRig rig = new NodeRig().consumes(C, D, E).sinks(TOPIC_S, TOPIC_T);

    // Composition (§6.1) ------------------------------------------------------------------

    @Test
    void stampClaimsTheFrontier() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 3));
        node.onRecord(record(D, 0));

        assertThat(node.prepareSend(S0).clock()).isEqualTo(clock().advanceTo(C, 3).advanceTo(D, 0));
    }

    @Test
    void stampCarriesBothClaimKindsOfEveryReceivedClockIncludingHeldRecords() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0, clock().advanceTo(D, 4).advanceTo(X, 9).advanceSeq(seq(E, U), 2)));
        node.onRecord(record(E, 0, clock().advanceSeq(seq(X, V), 7)));

        VectorClock stamp = node.prepareSend(S0).clock();

        assertThat(node.held()).isEqualTo(1);
        assertThat(stamp).isEqualTo(clock().advanceTo(D, 4).advanceTo(X, 9).advanceTo(E, 0)
                .advanceSeq(seq(E, U), 2).advanceSeq(seq(X, V), 7));
    }

    @Test
    void stampClaimsOwnOutputsAtTheHighWatermarkMinusOneOfEverySinkPartitionThisNodeSentTo() {
        Channel s2 = new Channel(TOPIC_S, 2);
        CausalNode first = rig.start();
        first.prepareSend(S0);
        first.prepareSend(T0);
        rig.broker.topic(TOPIC_S, 3).end(S0, 10).end(S1, 7).end(T0, 1);

        VectorClock stamp = rig.start().prepareSend(s2).clock();

        assertThat(stamp.offsets()).as("S1 holds only other senders' records: this node caused none of them")
                .containsExactly(Map.entry(S0, 9L), Map.entry(T0, 0L));
    }

    @Test
    void theSinkSeedOfAPartitionThisNodeNeverSentToStillSeedsAGrownInput() {
        rig.broker.topic(TOPIC_S, 2).end(S1, 7);
        rig.start();

        CausalNode grown = rig.consumes(C, D, E, S1).start();

        assertThat(grown.prepareSend(T0).clock().offsets()).containsExactly(Map.entry(S1, 6L));
        assertThat(grown.frontier(S1)).as("a grown own sink starts at its end, as before").isEqualTo(6);
    }

    @Test
    void stampClaimsCarriedAncestry() {
        rig.broker.end(T0, 6);
        rig.start();

        VectorClock stamp = rig.sinks(TOPIC_S).start().prepareSend(S0).clock();

        assertThat(stamp).isEqualTo(clock().advanceTo(T0, 5));
    }

    @Test
    void stampOfAFreshNodeIsEmpty() {
        SendStamp stamp = rig.start().prepareSend(S0);

        assertThat(stamp.clock().isEmpty()).isTrue();
        assertThat(stamp.sender()).isEqualTo(SELF);
        assertThat(stamp.seq()).isZero();
    }

    @Test
    void stampIsTheCallersCopy() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0, clock().advanceTo(X, 1)));

        node.prepareSend(S0).clock().advanceTo(X, 50).advanceTo(D, 3);

        assertThat(node.prepareSend(S0).clock().offsets()).containsExactly(Map.entry(C, 0L), Map.entry(X, 1L));
        assertThat(node.state().channelClocks().get(C)).isEqualTo(clock().advanceTo(X, 1));
    }

    // Sequence numbers and self-claims (§6.1-6.2) -----------------------------------------

    @Test
    void sequenceNumbersCountFromZeroPerSinkTopic() {
        CausalNode node = rig.start();

        assertThat(node.prepareSend(S0).seq()).isZero();
        assertThat(node.prepareSend(S0).seq()).isEqualTo(1);
        assertThat(node.prepareSend(S1).seq()).as("S1 continues its topic's count").isEqualTo(2);
        assertThat(node.prepareSend(S0).seq()).as("S0's own: 0, 1, 3, with a gap").isEqualTo(3);
        assertThat(node.prepareSend(T0).seq()).as("another sink topic counts from zero").isZero();
    }

    @Test
    void freshSelfClaimsCoverThisIncarnationsSendsToEverySinkChannel() {
        CausalNode node = rig.start();
        node.prepareSend(S0);
        node.prepareSend(S0);
        node.prepareSend(T0);

        assertThat(node.prepareSend(S1).clock().seqs()).containsExactly(
                Map.entry(seq(S0, SELF), 1L), Map.entry(seq(T0, SELF), 0L));
    }

    @Test
    void stampCarriesNoClaimOnItsOwnDestinationChannel() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0, clock().advanceTo(S0, 4).advanceSeq(seq(S0, U), 2).advanceTo(S1, 3)));

        SendStamp first = node.prepareSend(S0);
        SendStamp second = node.prepareSend(S0);
        SendStamp third = node.prepareSend(S0);
        SendStamp elsewhere = node.prepareSend(S1);

        assertThat(first.clock()).as("the destination's log order implies every claim on it")
                .isEqualTo(clock().advanceTo(C, 0).advanceTo(S1, 3));
        assertThat(second.clock().seqs()).isEmpty();
        assertThat(third.clock().seqs()).isEmpty();
        assertThat(third.seq()).isEqualTo(2);
        assertThat(elsewhere.clock()).as("another partition of the same topic is claimed").isEqualTo(clock()
                .advanceTo(C, 0).advanceTo(S0, 4).advanceSeq(seq(S0, U), 2).advanceSeq(seq(S0, SELF), 2));
    }

    @Test
    void sendSequenceIsPersistedAndContinuesAfterARestart() {
        CausalNode node = rig.start();
        node.prepareSend(S0);
        node.prepareSend(S0);
        rig.commit();

        assertThat(NodeRig.longValue(rig.store.get(ProtocolStore.sendSeqKey(Channel.wholeTopic(TOPIC_S)))))
                .as("the topic's ceiling, in blocks of one").isEqualTo(1);
        assertThat(NodeRig.longValue(rig.store.get(ProtocolStore.sendSeqKey(S0)))).as("S0's first send").isZero();
        assertThat(rig.start().prepareSend(S1).seq()).isEqualTo(2);
    }

    @Test
    void sendsAtOrBelowTheRestoredBaselineAreNotClaimedInSequenceSpace() {
        CausalNode first = rig.start();
        first.prepareSend(S0);
        first.prepareSend(T0);
        rig.broker.end(S0, 2).end(T0, 2);

        CausalNode restarted = rig.start();
        SendStamp s = restarted.prepareSend(S0);
        SendStamp t = restarted.prepareSend(T0);

        assertThat(s.clock()).isEqualTo(clock().advanceTo(T0, 1));
        assertThat(s.seq()).isEqualTo(1);
        assertThat(t.clock()).isEqualTo(clock().advanceTo(S0, 1).advanceSeq(seq(S0, SELF), 1));
        assertThat(t.seq()).isEqualTo(1);
    }

    @Test
    void aRestartIssuesAboveTheReservedCeilingAndClaimsInSequenceSpaceOnlyWhatThisIncarnationSent() {
        long block = NodeConfig.SEQUENCE_BLOCK;
        rig.sequenceBlock(NodeConfig.SEQUENCE_BLOCK);
        CausalNode first = rig.start();
        first.prepareSend(S0);
        first.prepareSend(S0);
        first.prepareSend(T0);
        rig.broker.end(S0, 3).end(T0, 2);

        CausalNode restarted = rig.start();
        SendStamp s = restarted.prepareSend(S0);
        SendStamp t = restarted.prepareSend(T0);

        assertThat(restarted.state().baselineSeqs()).as("the first send of each")
                .containsOnly(Map.entry(S0, 0L), Map.entry(T0, 0L));
        assertThat(restarted.state().topicBaseline(Channel.wholeTopic(TOPIC_S))).isEqualTo(block - 1);
        assertThat(restarted.state().topicBaseline(Channel.wholeTopic(TOPIC_T))).isEqualTo(block - 1);
        assertThat(s.seq()).as("the gap above the reserved block").isEqualTo(block);
        assertThat(s.clock()).as("prior sends are claimed by the seed").isEqualTo(clock().advanceTo(T0, 1));
        assertThat(t.seq()).isEqualTo(block);
        assertThat(t.clock()).isEqualTo(clock().advanceTo(S0, 2).advanceSeq(seq(S0, SELF), block));
        rig.commit();
        assertThat(NodeRig.longValue(rig.store.get(ProtocolStore.sendSeqKey(Channel.wholeTopic(TOPIC_S)))))
                .isEqualTo(2 * block - 1);
        assertThat(NodeRig.longValue(rig.store.get(ProtocolStore.sendSeqKey(S0)))).as("written once, at the first send")
                .isZero();
    }

    // Whole-topic self-claims (§6.2) ----------------------------------------------------------

    private static final Channel S2 = new Channel(TOPIC_S, 2);
    private static final Channel S3 = new Channel(TOPIC_S, 3);
    private static final Channel WHOLE_S = Channel.wholeTopic(TOPIC_S);

    @Test
    void sendsToSeveralOtherPartitionsOfATopicAreClaimedByOneWholeTopicClaimAtTheHighestOfThem() {
        rig.broker.topic(TOPIC_S, 4);
        CausalNode node = rig.start();
        node.prepareSend(S1);
        node.prepareSend(T0);
        node.prepareSend(S2);
        node.prepareSend(S3);
        node.prepareSend(S0);

        SendStamp rekeyed = node.prepareSend(S0);

        // S1 0, S2 1, S3 2 and S0 3 on topic S; T0 0 on topic T
        assertThat(rekeyed.clock().seqs()).as("S3's 2, not the destination's own 3").containsExactly(
                Map.entry(seq(WHOLE_S, SELF), 2L), Map.entry(seq(T0, SELF), 0L));
        assertThat(rekeyed.seq()).isEqualTo(4);
        assertThat(node.prepareSend(S1).clock().seqs()).as("S0's 4 is now the highest elsewhere")
                .containsExactly(Map.entry(seq(WHOLE_S, SELF), 4L), Map.entry(seq(T0, SELF), 0L));
    }

    @Test
    void sendsToOneOtherPartitionOfATopicAreClaimedOnThatPartition() {
        CausalNode node = rig.start();
        node.prepareSend(S1);
        node.prepareSend(S1);
        node.prepareSend(S0);

        SendStamp stamp = node.prepareSend(S0);

        assertThat(stamp.clock().seqs()).as("the destination's own sends need no claim")
                .containsExactly(Map.entry(seq(S1, SELF), 1L));
        assertThat(stamp.seq()).isEqualTo(3);
    }

    @Test
    void sendsOfAnEarlierIncarnationLeaveTheWholeTopicClaimToTheSeed() {
        rig.broker.topic(TOPIC_S, 4);
        CausalNode first = rig.start();
        first.prepareSend(S1);
        first.prepareSend(S2);
        rig.broker.end(S1, 1).end(S2, 1);
        CausalNode node = rig.start();
        node.prepareSend(S3);

        VectorClock stamp = node.prepareSend(S0).clock();

        assertThat(stamp.seqs()).as("S1 and S2 are at or below the topic's baseline, 1; S3's 2 is not")
                .containsExactly(Map.entry(seq(S3, SELF), 2L));
        assertThat(stamp.offsets()).as("the seed").containsExactly(Map.entry(S1, 0L), Map.entry(S2, 0L));
    }

    @Test
    void anEchoOfTheOwnWholeTopicClaimIsDropped() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0, clock().advanceSeq(seq(WHOLE_S, SELF), 7)));

        VectorClock echoed = node.prepareSend(T0).clock();

        assertThat(echoed).isEqualTo(clock().advanceTo(C, 0));
        assertThat(node.seqNormalisations()).isEqualTo(1);
        node.prepareSend(S0);
        node.prepareSend(S1);
        // S0 0 and S1 1 on topic S (T0's 0 counts on topic T)
        assertThat(node.prepareSend(T0).clock().seqs()).as("the fresh claim, not the echo's 7")
                .containsExactly(Map.entry(seq(WHOLE_S, SELF), 1L));
    }

    @Test
    void anEchoOfTheOwnWholeTopicClaimIsDroppedByNormalisationAlone() {
        CausalNode node = rig.start();
        VectorClock stamp = clock().advanceSeq(seq(WHOLE_S, SELF), 7).advanceSeq(seq(WHOLE_S, U), 7);

        int changed = Stamping.normalize(stamp, SELF, node.state());

        assertThat(stamp).as("another sender's whole-topic claim is kept").isEqualTo(clock().advanceSeq(seq(WHOLE_S, U), 7));
        assertThat(changed).isEqualTo(1);
    }

    @Test
    void aForeignPartitionClaimAtOrBelowTheSameSendersWholeTopicClaimIsDropped() {
        CausalNode node = rig.start();
        VectorClock stamp = clock().advanceSeq(seq(WHOLE_S, U), 5)
                .advanceSeq(seq(S0, U), 5).advanceSeq(seq(S1, U), 6).advanceSeq(seq(S2, U), 4)
                .advanceSeq(seq(S0, V), 1).advanceSeq(seq(T0, U), 1);

        int changed = Stamping.normalize(stamp, SELF, node.state());

        assertThat(stamp).as("S1's 6 asks for more; V's and topic T's claims are another sender's or topic's")
                .isEqualTo(clock().advanceSeq(seq(WHOLE_S, U), 5).advanceSeq(seq(S1, U), 6)
                        .advanceSeq(seq(S0, V), 1).advanceSeq(seq(T0, U), 1));
        assertThat(changed).isEqualTo(2);
    }

    @Test
    void aMarkResolvesAPartitionClaimBeforeAWholeTopicClaimCouldDropIt() {
        CausalNode node = rig.consumes(C, D, E, S0).start();
        node.onRecord(tagged(S0, 3, U, 5, null));
        VectorClock stamp = clock().advanceSeq(seq(WHOLE_S, U), 9).advanceSeq(seq(S0, U), 5);

        Stamping.normalize(stamp, SELF, node.state());

        assertThat(stamp).isEqualTo(clock().advanceTo(S0, 3).advanceSeq(seq(WHOLE_S, U), 9));
    }

    @Test
    void sendToANullDestinationFails() {
        CausalNode node = rig.start();

        assertThatThrownBy(() -> node.prepareSend(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("Send destination is null: the host partitions before stamping");
    }

    @Test
    void sendToAnUndeclaredSinkTopicFails() {
        CausalNode node = rig.start();

        assertThatThrownBy(() -> node.prepareSend(X))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Send to undeclared sink topic; node=stage-task-0_0, destination=" + X);
    }

    @Test
    void refusedSendIssuesNoSequenceNumber() {
        CausalNode node = rig.start();

        assertThatThrownBy(() -> node.prepareSend(X)).isInstanceOf(IllegalStateException.class);

        assertThat(rig.store.keys()).noneMatch(k -> k.startsWith("sq/"));
        assertThat(node.prepareSend(S0).clock().seqs()).isEmpty();
    }

    // Normalisation (§6.3) ----------------------------------------------------------------

    /** §6.3 worked example, resolvable case. */
    @Test
    void resolvableClaimOfAnotherSenderBecomesAnOffsetClaim() {
        CausalNode node = rig.consumes(C, D).start();
        node.onRecord(tagged(C, 0, U, 5, null));

        assertThat(node.onRecord(record(D, 0, clock().advanceSeq(seq(C, U), 5)))).hasSize(1);
        VectorClock stamp = node.prepareSend(S0).clock();

        assertThat(stamp.seqs()).isEmpty();
        assertThat(stamp.offsets()).containsExactly(Map.entry(C, 0L), Map.entry(D, 0L));
        assertThat(node.seqNormalisations()).isEqualTo(1);
    }

    /** §6.3 worked example, unresolvable case. */
    @Test
    void unresolvableClaimOfAnotherSenderIsKeptVerbatim() {
        CausalNode node = rig.consumes(C, D).start();
        node.onRecord(tagged(C, 0, U, 5, null));

        assertThat(node.onRecord(record(D, 0, clock().advanceSeq(seq(C, U), 9)))).isEmpty();
        VectorClock stamp = node.prepareSend(S0).clock();

        assertThat(stamp.seqs()).containsExactly(Map.entry(seq(C, U), 9L));
        assertThat(stamp.offsets()).containsExactly(Map.entry(C, 0L));
        assertThat(node.seqNormalisations()).isZero();
    }

    @Test
    void claimOfASenderNeverDeliveredHereIsKeptVerbatim() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0, clock().advanceSeq(seq(X, U), 3)));

        assertThat(node.prepareSend(S0).clock().seqs()).containsExactly(Map.entry(seq(X, U), 3L));
    }

    @Test
    void resolvableClaimIsRewrittenAtTheMarksOffset() {
        CausalNode node = rig.start();
        node.onRecord(tagged(C, 0, U, 5, null));
        node.onRecord(tagged(C, 4, U, 2, null));
        VectorClock stamp = clock().advanceSeq(seq(C, U), 4).advanceSeq(seq(C, V), 0);

        int changed = Stamping.normalize(stamp, SELF, node.state());

        assertThat(stamp).isEqualTo(clock().advanceTo(C, 0).advanceSeq(seq(C, V), 0));
        assertThat(changed).isEqualTo(1);
    }

    @Test
    void claimEqualToTheMarkIsResolvedAndOneAboveItIsNot() {
        CausalNode node = rig.start();
        node.onRecord(tagged(C, 2, U, 5, null));
        node.onRecord(tagged(D, 7, U, 5, null));
        VectorClock stamp = clock().advanceSeq(seq(C, U), 5).advanceSeq(seq(D, U), 6);

        Stamping.normalize(stamp, SELF, node.state());

        assertThat(stamp).isEqualTo(clock().advanceTo(C, 2).advanceSeq(seq(D, U), 6));
    }

    @Test
    void echoOfThisIncarnationsOwnSendIsDropped() {
        CausalNode node = rig.start();
        node.prepareSend(S0);
        VectorClock stamp = clock().advanceSeq(seq(S0, SELF), 0).advanceSeq(seq(T0, SELF), 4);

        int changed = Stamping.normalize(stamp, SELF, node.state());

        assertThat(stamp.isEmpty()).isTrue();
        assertThat(changed).isEqualTo(2);
    }

    @Test
    void echoOfThisIncarnationsOwnSendIsDroppedEvenWhereTheOwnOutputsSeedCouldCoverIt() {
        rig.broker.end(S0, 5);
        CausalNode node = rig.start();
        node.prepareSend(S0);
        VectorClock stamp = clock().advanceSeq(seq(S0, SELF), 0);

        Stamping.normalize(stamp, SELF, node.state());

        assertThat(stamp.isEmpty()).isTrue();
    }

    @Test
    void echoOfThisIncarnationsOwnSendIsDominatedByTheFreshSelfClaim() {
        CausalNode node = rig.start();
        node.prepareSend(S0);
        node.prepareSend(S0);
        node.onRecord(record(C, 0, clock().advanceSeq(seq(S0, SELF), 0)));

        VectorClock stamp = node.prepareSend(T0).clock();

        assertThat(stamp.seqs()).containsExactly(Map.entry(seq(S0, SELF), 1L));
        assertThat(node.seqNormalisations()).isEqualTo(1);
    }

    @Test
    void echoOfAPriorIncarnationsSendBecomesAnOffsetClaimAtTheOwnOutputsSeed() {
        rig.start().prepareSend(S0);
        rig.start().prepareSend(S0);
        rig.broker.end(S0, 4);
        CausalNode node = rig.start();
        VectorClock stamp = clock().advanceSeq(seq(S0, SELF), 1).advanceSeq(seq(S1, SELF), 0);
        VectorClock lower = clock().advanceSeq(seq(S0, SELF), 0);

        Stamping.normalize(stamp, SELF, node.state());
        Stamping.normalize(lower, SELF, node.state());

        assertThat(stamp).isEqualTo(clock().advanceTo(S0, 3));
        assertThat(lower).isEqualTo(clock().advanceTo(S0, 3));
    }

    @Test
    void echoOfAPriorSendToAFormerSinkBecomesAnOffsetClaimAtTheHealedAncestry() {
        rig.start().prepareSend(T0);
        rig.broker.end(T0, 3);
        CausalNode node = rig.sinks(TOPIC_S).start();
        VectorClock stamp = clock().advanceSeq(seq(T0, SELF), 0);

        Stamping.normalize(stamp, SELF, node.state());

        assertThat(stamp).isEqualTo(clock().advanceTo(T0, 2));
    }

    @Test
    void ownOutputsSeedIsPreferredToHealedAncestryForAnEcho() {
        rig.start().prepareSend(T0);
        rig.broker.end(T0, 3);
        rig.sinks(TOPIC_S).start();
        rig.broker.end(T0, 8);
        CausalNode node = rig.sinks(TOPIC_S, TOPIC_T).start();
        VectorClock stamp = clock().advanceSeq(seq(T0, SELF), 0);

        Stamping.normalize(stamp, SELF, node.state());

        assertThat(node.state().carried().offset(T0)).isEqualTo(2);
        assertThat(stamp).isEqualTo(clock().advanceTo(T0, 7));
    }

    @Test
    void echoOfAPriorSendToATopicThatIsGoneIsDropped() {
        CausalNode first = rig.start();
        first.onRecord(record(C, 0));
        first.prepareSend(T0);
        rig.broker.delete(TOPIC_T);
        CausalNode node = rig.sinks(TOPIC_S).start();
        node.onRecord(record(D, 0, clock().advanceSeq(seq(T0, SELF), 0)));

        VectorClock stamp = node.prepareSend(S0).clock();

        assertThat(stamp).isEqualTo(clock().advanceTo(C, 0).advanceTo(D, 0));
        assertThat(node.seqNormalisations()).isEqualTo(1);
    }

    @Test
    void normalisationsAreCountedAcrossStamps() {
        CausalNode node = rig.start();
        node.onRecord(tagged(C, 0, U, 1, null));
        node.onRecord(record(D, 0, clock().advanceSeq(seq(C, U), 1).advanceSeq(seq(C, V), 1)));

        node.prepareSend(S0);
        node.prepareSend(S0);

        assertThat(node.seqNormalisations()).isEqualTo(2);
    }

    // §9.4 worked example: restart, baselines and a marker-valued seed ------------------------

    private static final Channel X0 = new Channel(TOPIC_X, 0);
    private static final Channel Y0 = new Channel(TOPIC_Y, 0);
    private static final UUID N = new UUID(0x94L, 0x1L);

    private final NodeRig n = new NodeRig().sender(N).consumes(E).sinks(TOPIC_X, TOPIC_Y);

    /** Incarnation 1 emits x0 then y0 in one step; logs become {@code x0@0, marker@1} and {@code y0@0, marker@1}. */
    private SendStamp[] firstIncarnation() {
        CausalNode first = n.start();
        SendStamp x0 = first.prepareSend(X0);
        SendStamp y0 = first.prepareSend(Y0);
        n.broker.end(X0, 2).end(Y0, 2);
        return new SendStamp[] {x0, y0};
    }

    @Test
    void firstIncarnationClaimsItsEarlierSendInSequenceSpace() {
        SendStamp[] sent = firstIncarnation();

        assertThat(sent[0].clock().isEmpty()).isTrue();
        assertThat(sent[0].seq()).isZero();
        assertThat(sent[1].clock()).isEqualTo(clock().advanceSeq(seq(X0, N), 0));
        assertThat(sent[1].seq()).isZero();
    }

    @Test
    void restartClaimsPriorSendsThroughTheMarkerValuedSeed() {
        firstIncarnation();
        CausalNode node = n.start();

        SendStamp y1 = node.prepareSend(Y0);
        SendStamp x1 = node.prepareSend(X0);

        assertThat(node.state().baselineSeqs()).containsOnly(Map.entry(X0, 0L), Map.entry(Y0, 0L));
        assertThat(y1.clock()).isEqualTo(clock().advanceTo(X0, 1));
        assertThat(y1.seq()).isEqualTo(1);
        assertThat(x1.clock()).isEqualTo(clock().advanceTo(Y0, 1).advanceSeq(seq(Y0, N), 1));
        assertThat(x1.seq()).isEqualTo(1);
    }

    @Test
    void echoOfTheFirstIncarnationIsUpgradedToTheSeed() {
        firstIncarnation();
        CausalNode node = n.start();
        node.onRecord(tagged(E, 0, U, 0, clock().advanceSeq(seq(X0, N), 0)));

        VectorClock stamp = node.prepareSend(Y0).clock();

        assertThat(stamp).isEqualTo(clock().advanceTo(E, 0).advanceTo(X0, 1));
    }

    @Test
    void consumerGatingOnTheMarkerValuedSeedIsReleasedByAPositionAdvance() {
        SendStamp[] sent = firstIncarnation();
        SendStamp y1 = n.start().prepareSend(Y0);
        CausalNode p = new NodeRig().sender(new UUID(0x94L, 0x2L)).consumes(X0, Y0).start();
        p.onRecord(stamped(X0, 0, sent[0]));
        p.onRecord(stamped(Y0, 0, sent[1]));

        assertThat(p.onRecord(stamped(Y0, 2, y1))).isEmpty();
        assertThat(p.frontier(X0)).isZero();
        assertThat(coordinates(p.positionAdvance(X0, 2))).containsExactly(at(Y0, 2));
    }

    @Test
    void consumerGatingOnTheMarkerValuedSeedIsReleasedByTheNextRecord() {
        SendStamp[] sent = firstIncarnation();
        CausalNode node = n.start();
        SendStamp y1 = node.prepareSend(Y0);
        SendStamp x1 = node.prepareSend(X0);
        CausalNode p = new NodeRig().sender(new UUID(0x94L, 0x2L)).consumes(X0, Y0).start();
        p.onRecord(stamped(X0, 0, sent[0]));
        p.onRecord(stamped(Y0, 0, sent[1]));
        p.onRecord(stamped(Y0, 2, y1));

        assertThat(coordinates(p.onRecord(stamped(X0, 2, x1)))).containsExactly(at(Y0, 2), at(X0, 2));
    }
}
