package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.NodeRig.C;
import static io.github.tobyjamesclements.parsley.NodeRig.D;
import static io.github.tobyjamesclements.parsley.NodeRig.S0;
import static io.github.tobyjamesclements.parsley.NodeRig.S1;
import static io.github.tobyjamesclements.parsley.NodeRig.T0;
import static io.github.tobyjamesclements.parsley.NodeRig.TOPIC_S;
import static io.github.tobyjamesclements.parsley.NodeRig.U;
import static io.github.tobyjamesclements.parsley.NodeRig.X;
import static io.github.tobyjamesclements.parsley.NodeRig.clock;
import static io.github.tobyjamesclements.parsley.NodeRig.record;
import static io.github.tobyjamesclements.parsley.NodeRig.seq;
import static io.github.tobyjamesclements.parsley.NodeRig.tagged;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NodeState as the one owner of a node's state (protocol.md §2): each change reaches memory and
 * store together (a state restored from the flushed store reads the same), and values that only
 * grow fail closed when a change would not grow them.
 */
class NodeStateTests {

    private final TestStateStore store = new TestStateStore();
    private final NodeState state = open();

    private NodeState open() {
        NodeState s = new NodeState("stage-task-0_0", store, 4, NodeSeams.NONE);
        s.openInput(C);
        s.openInput(D);
        return s;
    }

    /** The state a restart would see: what was flushed, nothing else. */
    private NodeState restored() {
        state.persist();
        return open();
    }

    // Own sends -----------------------------------------------------------------------------

    // Frontier ----------------------------------------------------------------------------

    @Test
    void frontierGrowsInMemoryOnlyAndARestartDerivesItFromTheCommittedPosition() {
        assertThat(state.frontier(C)).isEqualTo(VectorClock.NOTHING);

        state.advanceFrontier(C, 0);
        state.advanceFrontier(C, 4);

        assertThat(state.frontier(C)).isEqualTo(4);
        assertThat(state.frontiers()).containsExactly(Map.entry(C, 4L));
        NodeState restarted = restored();
        assertThat(restarted.frontiers()).as("not persisted").isEmpty();
        restarted.deriveFrontier(C, 5L);
        restarted.deriveFrontier(D, null);
        assertThat(restarted.frontiers()).containsExactly(Map.entry(C, 4L));
    }

    @Test
    void frontierThatWouldNotGrowFailsClosedNamingTheChannel() {
        state.advanceFrontier(C, 4);

        assertThatThrownBy(() -> state.advanceFrontier(C, 4)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Frontier would not grow").hasMessageContaining("channel=" + C)
                .hasMessageContaining("node=stage-task-0_0").hasMessageContaining("frontier=4, proposed=4");
        assertThatThrownBy(() -> state.advanceFrontier(C, 2)).hasMessageContaining("proposed=2");
        assertThat(state.frontier(C)).isEqualTo(4);
    }

    @Test
    void whileTheQueueHoldsRecordsTheDerivedFrontierIsTheHeadMinusOneWhateverThePosition() {
        state.hold(HeldEntry.borrowing(record(C, 7)));
        state.hold(HeldEntry.borrowing(record(C, 9)));
        NodeState restarted = restored();

        restarted.deriveFrontier(C, 20L);

        assertThat(restarted.frontier(C)).as("records 7 and 9 are held: the position passes them").isEqualTo(6);
    }

    @Test
    void aGrownInputsSeedIsAFloorNoCommittedPositionLowersNorIsRequiredFor() {
        state.seedInput(C, 9);
        NodeState restarted = restored();

        restarted.deriveFrontier(C, 3L);
        assertThat(restarted.frontier(C)).as("the refetched prefix stays below the seed").isEqualTo(9);
        NodeState again = open();
        again.deriveFrontier(C, null);
        assertThat(again.frontier(C)).isEqualTo(9);
        again.deriveFrontier(D, 12L);
        assertThat(again.frontier(D)).isEqualTo(11);
    }

    @Test
    void aGrownInputSeededAtOffsetZeroKeepsThatFloorAcrossARestart() {
        state.seedInput(C, 0);
        NodeState restarted = restored();

        restarted.deriveFrontier(C, null);
        assertThat(restarted.frontier(C)).as("offset 0 is history: a restart must not deliver it again").isZero();
    }

    @Test
    void theFirstDeliveryOnAChannelWritesItsFloorOnceAndLaterOnesWriteNone() {
        state.hold(HeldEntry.borrowing(record(C, 3)));
        state.hold(HeldEntry.borrowing(record(C, 4)));
        state.deliverHead(C);
        state.persist();
        assertThat(store.writes()).contains("put " + ProtocolStore.frontierKey(C));
        store.writes().clear();

        state.deliverHead(C);
        state.persist();

        assertThat(store.writes()).doesNotContain("put " + ProtocolStore.frontierKey(C));
        assertThat(open().deliveredOn(C)).isTrue();
        assertThat(open().deliveredOn(D)).isFalse();
    }

    @Test
    void deliveredOrHeldHistoryWithoutACommittedPositionFailsClosedNamingTheWayOut() {
        state.hold(HeldEntry.borrowing(record(C, 3)));
        state.deliverHead(C);
        state.hold(HeldEntry.borrowing(record(D, 0)));
        NodeState restarted = restored();

        for (var c : List.of(C, D)) {
            assertThatThrownBy(() -> restarted.deriveFrontier(c, null)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("No committed consumer position").hasMessageContaining("channel=" + c)
                    .hasMessageContaining("node=stage-task-0_0").hasMessageContaining("offsets.retention.minutes")
                    .hasMessageContaining("reset the application's state and offsets together");
        }
        restarted.deriveFrontier(C, 4L);
        assertThat(restarted.frontier(C)).isEqualTo(3);
    }

    @Test
    void readViewsCannotChangeTheState() {
        state.advanceFrontier(C, 1);
        state.advanceMark(C, U, 1, 1);

        assertThatThrownBy(() -> state.frontiers().put(C, 0L)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> state.marks().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> state.sendSeqs().clear()).isInstanceOf(UnsupportedOperationException.class);
        state.carried().advanceTo(X, 9);
        state.ownOutputs().advanceTo(X, 9);
        state.channelClocks().get(C).advanceTo(X, 9);
        assertThat(state.stampBase()).isEqualTo(clock().advanceTo(C, 1));
    }

    // Positions and marks -----------------------------------------------------------------

    @Test
    void knownPositionKeepsTheHighestAndIsNotPersisted() {
        assertThat(state.positionKnown(C)).isZero();

        state.notePosition(C, 7);
        state.notePosition(C, 3);

        assertThat(state.positionKnown(C)).isEqualTo(7);
        assertThat(state.positionsKnown()).containsExactly(Map.entry(C, 7L));
        assertThat(restored().positionKnown(C)).isZero();
    }

    @Test
    void markRisesOnlyWithAHigherSequence() {
        state.advanceMark(C, U, 5, 2);
        state.advanceMark(C, U, 5, 9);
        state.advanceMark(C, U, 4, 10);

        assertThat(state.mark(seq(C, U))).isEqualTo(new ProtocolStore.Mark(5, 2));

        state.advanceMark(C, U, 6, 11);

        assertThat(state.mark(seq(C, U))).isEqualTo(new ProtocolStore.Mark(6, 11));
        assertThat(restored().marks()).containsExactly(Map.entry(seq(C, U), new ProtocolStore.Mark(6, 11)));
    }

    // Hold queues -------------------------------------------------------------------------

    @Test
    void heldEntriesAreQueuedAndPoppedInMemoryAndStoreTogether() {
        state.hold(HeldEntry.borrowing(record(C, 3)));
        state.hold(HeldEntry.borrowing(tagged(C, 5, U, 0, null)));
        state.hold(HeldEntry.borrowing(record(C, 8)));

        assertThat(state.held(C)).isEqualTo(3);
        assertThat(state.head(C).offset()).isEqualTo(3);
        assertThat(state.behindHead(C).offset()).isEqualTo(5);
        assertThat(state.tail(C).offset()).isEqualTo(8);
        assertThat(state.deliverHead(C).offset()).isEqualTo(3);

        NodeState restarted = restored();
        List<String> held = new ArrayList<>();
        restarted.forEachHeld((c, e) -> held.add(c + "/" + e.offset()));
        assertThat(held).containsExactly(C + "/5", C + "/8");
        assertThat(restarted.frontier(C)).isEqualTo(3);
        assertThat(restarted.marks()).isEmpty();
    }

    @Test
    void deliveringATaggedHeadRaisesItsSendersMark() {
        state.advanceFrontier(C, 7);
        state.hold(HeldEntry.borrowing(tagged(C, 5, U, 2, null)));

        Delivery d = state.deliverHead(C);

        assertThat(d.channel()).isEqualTo(C);
        assertThat(d.offset()).isEqualTo(5);
        assertThat(state.frontier(C)).as("a head below the frontier leaves it").isEqualTo(7);
        assertThat(restored().marks()).containsExactly(Map.entry(seq(C, U), new ProtocolStore.Mark(2, 5)));
    }

    @Test
    void emptyAndUnknownQueuesAnswerNothing() {
        state.hold(HeldEntry.borrowing(record(C, 3)));

        assertThat(state.behindHead(C)).isNull();
        state.hold(HeldEntry.borrowing(record(C, 4)));
        assertThat(state.behindHead(C).offset()).isEqualTo(4);
        assertThat(state.head(D)).isNull();
        assertThat(state.tail(D)).isNull();
        assertThat(state.behindHead(D)).isNull();
        assertThat(state.head(X)).isNull();
        assertThat(state.tail(X)).isNull();
        assertThat(state.behindHead(X)).isNull();
        assertThat(state.held(X)).isZero();
    }

    @Test
    void aChannelsStateIsOneWhicheverInstanceNamesIt() {
        Channel sameAsC = new Channel(C.topicId(), C.partition());
        Channel sameAsD = new Channel(D.topicId(), D.partition());

        state.hold(HeldEntry.borrowing(record(sameAsC, 3)));
        state.notePosition(sameAsC, 9);
        state.notePosition(D, 4);
        state.advanceMark(sameAsD, U, 2, 1);
        state.advanceMark(D, U, 3, 2);

        assertThat(state.head(C).offset()).isEqualTo(3);
        assertThat(state.held(C)).isEqualTo(1);
        assertThat(state.held(D)).as("not the other opened channel's queue").isZero();
        assertThat(state.positionKnown(C)).isEqualTo(9);
        assertThat(state.positionKnown(sameAsD)).isEqualTo(4);
        assertThat(state.marks()).containsExactly(Map.entry(seq(D, U), new ProtocolStore.Mark(3, 2)));
        state.deliverHead(C);
        assertThat(state.deliveredOn(sameAsC)).isTrue();
        assertThat(state.deliveredOn(D)).isFalse();
    }

    @Test
    void aChannelKnownOnlyByItsPositionHoldsNothingAndHasNoClock() {
        state.notePosition(X, 5);

        assertThat(state.positionsKnown()).containsExactly(Map.entry(X, 5L));
        assertThat(state.held(X)).isZero();
        assertThat(state.deliveredOn(X)).isFalse();
        assertThat(state.channelClocks()).containsOnlyKeys(C, D);
        List<String> held = new ArrayList<>();
        state.forEachHeld((c, e) -> held.add(c + "/" + e.offset()));
        assertThat(held).isEmpty();
    }

    // Clocks ------------------------------------------------------------------------------

    @Test
    void foldedChannelClockAndCarriedAncestryArePersisted() {
        state.foldChannelClock(C, clock().advanceTo(X, 2));
        state.foldChannelClock(C, clock().advanceTo(X, 1).advanceSeq(seq(D, U), 3));
        state.carry(clock().advanceTo(S0, 6));

        NodeState restarted = restored();
        assertThat(restarted.channelClocks().get(C)).isEqualTo(clock().advanceTo(X, 2).advanceSeq(seq(D, U), 3));
        assertThat(restarted.carried()).isEqualTo(clock().advanceTo(S0, 6));
        assertThat(restarted.carried(S0)).isEqualTo(6);
    }

    @Test
    void carryPersistsEvenWhenNothingChanged() {
        store.writes().clear();

        state.carry(clock());
        state.persist();

        assertThat(store.writes()).containsExactly("put " + ProtocolStore.CARRIED);
    }

    @Test
    void stampBaseUnitesFrontierChannelClocksCarriedAndOwnOutputs() {
        state.advanceFrontier(C, 4);
        state.foldChannelClock(D, clock().advanceTo(X, 2).advanceSeq(seq(X, U), 1));
        state.carry(clock().advanceTo(X, 5));
        state.seedOwnOutput(S0, 9);

        assertThat(state.stampBase()).isEqualTo(clock().advanceTo(C, 4).advanceTo(X, 5).advanceTo(S0, 9)
                .advanceSeq(seq(X, U), 1));
        assertThat(state.ownOutput(S0)).isEqualTo(9);
        assertThat(state.ownOutputs()).isEqualTo(clock().advanceTo(S0, 9));
        assertThat(restored().ownOutput(S0)).as("own outputs are seeded at init, not stored")
                .isEqualTo(VectorClock.NOTHING);
    }

    @Test
    void truncationWritesOnlyWhatItChanged() {
        state.foldChannelClock(C, clock().advanceTo(X, 2));
        state.foldChannelClock(D, clock().advanceTo(S0, 7));
        state.carry(clock().advanceTo(X, 1));
        state.persist();
        store.writes().clear();

        state.truncate(clock().advanceTo(X, 2));
        state.persist();

        assertThat(store.writes()).containsExactlyInAnyOrder("put " + ProtocolStore.CARRIED,
                "put " + ProtocolStore.channelClockKey(C));
        assertThat(state.stampChannels()).containsExactly(S0);
        NodeState restarted = restored();
        assertThat(restarted.carried().isEmpty()).isTrue();
        assertThat(restarted.channelClocks().get(C).isEmpty()).isTrue();
    }

    // Send sequences ----------------------------------------------------------------------

    @Test
    void sendSequencesAreCountedPerSinkTopicSoAPartitionsOwnAreIncreasingWithGaps() {
        assertThat(state.issueSendSeq(S0)).isZero();
        assertThat(state.issueSendSeq(S1)).as("the topic's counter, not S1's own").isEqualTo(1);
        assertThat(state.issueSendSeq(S0)).isEqualTo(2);
        assertThat(state.issueSendSeq(T0)).as("another topic counts from zero").isZero();
        assertThat(state.issueSendSeq(S1)).isEqualTo(3);

        assertThat(state.sendSeqs()).as("the last issued per destination")
                .containsExactly(Map.entry(S0, 2L), Map.entry(S1, 3L), Map.entry(T0, 0L));
        assertThat(state.baselineSeq(S0)).isEqualTo(VectorClock.NOTHING);
        assertThat(state.topicBaseline(Channel.wholeTopic(TOPIC_S))).isEqualTo(VectorClock.NOTHING);
    }

    @Test
    void aTopicsKeyOfItsOwnIsOneInstancePerTopic() {
        Channel topic = state.topicKeyOf(S0);

        assertThat(topic).isEqualTo(Channel.wholeTopic(TOPIC_S));
        assertThat(state.topicKeyOf(S1)).isSameAs(topic);
        assertThat(state.topicKeyOf(topic)).isSameAs(topic);
        assertThat(state.topicKey(S1)).isSameAs(topic);
        assertThat(state.topicKeyOf(T0)).isEqualTo(Channel.wholeTopic(NodeRig.TOPIC_T));
        assertThat(state.ownTopicKey(topic, U)).isEqualTo(new SeqKey(topic, U)).isSameAs(state.ownTopicKey(topic, U));
        assertThat(state.ownTopicKey(topic, NodeRig.V)).isEqualTo(new SeqKey(topic, NodeRig.V));
    }

    @Test
    void theTopicKeepsTheReservedCeilingAndEachPartitionOnceTheSequenceFirstSentThere() {
        Channel topic = Channel.wholeTopic(TOPIC_S);
        String topicKey = ProtocolStore.sendSeqKey(topic);
        assertThat(topicKey).endsWith(":*");

        state.issueSendSeq(S0);
        state.persist();
        assertThat(store.writes()).containsExactlyInAnyOrder("put " + topicKey, "put " + ProtocolStore.sendSeqKey(S0));
        assertThat(NodeRig.longValue(store.get(topicKey))).as("the block 0-3").isEqualTo(3);
        assertThat(NodeRig.longValue(store.get(ProtocolStore.sendSeqKey(S0)))).isZero();
        store.writes().clear();

        state.issueSendSeq(S1);
        state.persist();
        assertThat(store.writes()).as("1 is inside the block; S1's first send marks it")
                .containsExactly("put " + ProtocolStore.sendSeqKey(S1));
        assertThat(NodeRig.longValue(store.get(ProtocolStore.sendSeqKey(S1)))).isEqualTo(1);
        store.writes().clear();

        state.issueSendSeq(S0);
        state.issueSendSeq(S1);
        state.persist();
        assertThat(store.writes()).as("2 and 3: inside the block, to partitions sent to before").isEmpty();

        assertThat(state.issueSendSeq(S0)).isEqualTo(4);
        state.persist();
        assertThat(store.writes()).as("a partition's key is written once ever").containsExactly("put " + topicKey);
        assertThat(NodeRig.longValue(store.get(topicKey))).isEqualTo(7);
        assertThat(NodeRig.longValue(store.get(ProtocolStore.sendSeqKey(S0)))).isZero();
        assertThat(NodeRig.longValue(store.get(ProtocolStore.sendSeqKey(S1)))).isEqualTo(1);
    }

    @Test
    void theReservedCeilingIsTheNextIncarnationsTopicBaselineAndThePartitionKeysSayWhereItSent() {
        assertThat(state.issueSendSeq(S0)).isZero();
        assertThat(state.issueSendSeq(S0)).isEqualTo(1);

        NodeState restarted = restored();

        assertThat(restarted.topicBaseline(Channel.wholeTopic(TOPIC_S))).as("the block 0-3 was reserved").isEqualTo(3);
        assertThat(restarted.baselineSeq(S0)).as("an earlier incarnation committed a send to S0").isZero();
        assertThat(restarted.baselineSeq(S1)).as("and none to S1").isEqualTo(VectorClock.NOTHING);
        assertThat(restarted.baselineSeqs()).containsExactly(Map.entry(S0, 0L));
        assertThat(restarted.sendSeqs()).as("a destination's restored key, at or below the topic's baseline")
                .containsExactly(Map.entry(S0, 0L));
        assertThat(restarted.issueSendSeq(S1)).as("above every sequence the block let it issue, on any partition")
                .isEqualTo(4);
    }

    @Test
    void theCeilingIsWrittenOnlyWhenASequencePassesIt() {
        String topicKey = ProtocolStore.sendSeqKey(Channel.wholeTopic(TOPIC_S));
        state.issueSendSeq(S0);
        state.persist();
        assertThat(NodeRig.longValue(store.get(topicKey))).isEqualTo(3);
        store.writes().clear();

        for (int i = 1; i <= 3; i++) {
            state.issueSendSeq(S0);
            state.persist();
        }
        assertThat(store.writes()).as("sequences 1-3 are inside the reserved block").isEmpty();

        assertThat(state.issueSendSeq(S0)).isEqualTo(4);
        state.persist();
        assertThat(store.writes()).containsExactly("put " + topicKey);
        assertThat(NodeRig.longValue(store.get(topicKey))).isEqualTo(7);
        assertThat(open().issueSendSeq(S0)).isEqualTo(8);
    }

    @Test
    void anUnflushedReservationIsNotRestoredSoTheNextIncarnationIssuesAboveTheLastPersistedCeiling() {
        state.issueSendSeq(S0);
        state.persist();
        for (int i = 1; i <= 4; i++) {
            state.issueSendSeq(i % 2 == 0 ? S0 : S1);
        }

        NodeState restarted = open();

        assertThat(restarted.topicBaseline(Channel.wholeTopic(TOPIC_S))).as("sequence 4 and its reservation aborted together")
                .isEqualTo(3);
        assertThat(restarted.baselineSeq(S1)).as("so did S1's first send and its key").isEqualTo(VectorClock.NOTHING);
        assertThat(restarted.issueSendSeq(S0)).isEqualTo(4);
    }

    @Test
    void aPerPartitionCeilingAnEarlierBuildWroteBoundsItsWholeTopic() {
        // earlier builds counted per destination and kept each destination's ceiling at sq/<channel>
        store.put(ProtocolStore.sendSeqKey(S0), ByteBuffer.allocate(8).putLong(9).array());
        NodeState restarted = open();

        assertThat(restarted.baselineSeq(S0)).as("S0 was sent to").isEqualTo(9);
        assertThat(restarted.baselineSeq(S1)).isEqualTo(VectorClock.NOTHING);
        assertThat(restarted.topicBaseline(Channel.wholeTopic(TOPIC_S))).isEqualTo(9);
        assertThat(restarted.issueSendSeq(S1)).as("above S0's old ceiling though S1 had none").isEqualTo(10);
        assertThat(restarted.issueSendSeq(S0)).isEqualTo(11);
        restarted.persist();
        assertThat(NodeRig.longValue(store.get(ProtocolStore.sendSeqKey(Channel.wholeTopic(TOPIC_S))))).isEqualTo(13);
        assertThat(NodeRig.longValue(store.get(ProtocolStore.sendSeqKey(S1)))).isEqualTo(10);
        assertThat(NodeRig.longValue(store.get(ProtocolStore.sendSeqKey(S0)))).as("S0's key is not rewritten").isEqualTo(9);
    }

    @Test
    void theFirstSendAfterARestartIsAboveEveryRestoredKeyOfItsTopic() {
        // a topic ceiling below an old per-partition ceiling of the same topic, and another topic's key
        store.put(ProtocolStore.sendSeqKey(Channel.wholeTopic(TOPIC_S)), ByteBuffer.allocate(8).putLong(7).array());
        store.put(ProtocolStore.sendSeqKey(S1), ByteBuffer.allocate(8).putLong(20).array());
        store.put(ProtocolStore.sendSeqKey(S0), ByteBuffer.allocate(8).putLong(2).array());
        store.put(ProtocolStore.sendSeqKey(T0), ByteBuffer.allocate(8).putLong(50).array());
        NodeState restarted = open();

        assertThat(restarted.topicBaseline(Channel.wholeTopic(TOPIC_S))).isEqualTo(20);
        assertThat(restarted.topicBaseline(Channel.wholeTopic(NodeRig.TOPIC_T))).isEqualTo(50);
        assertThat(restarted.issueSendSeq(S0)).isEqualTo(21);
        assertThat(restarted.issueSendSeq(T0)).isEqualTo(51);
    }

    @Test
    void aReservationNearTheEndOfTheSequenceSpaceStopsAtItsLastValue() {
        String topicKey = ProtocolStore.sendSeqKey(Channel.wholeTopic(TOPIC_S));
        store.put(topicKey, ByteBuffer.allocate(8).putLong(Long.MAX_VALUE - 2).array());
        NodeState restarted = open();

        assertThat(restarted.issueSendSeq(S0)).isEqualTo(Long.MAX_VALUE - 1);
        restarted.persist();
        assertThat(NodeRig.longValue(store.get(topicKey))).isEqualTo(Long.MAX_VALUE);
        assertThat(NodeRig.longValue(store.get(ProtocolStore.sendSeqKey(S0)))).isEqualTo(Long.MAX_VALUE - 1);
    }

    @Test
    void exhaustedSendSequenceFailsClosedNamingTheTopic() {
        store.put(ProtocolStore.sendSeqKey(Channel.wholeTopic(TOPIC_S)), ByteBuffer.allocate(8).putLong(Long.MAX_VALUE).array());
        NodeState restarted = open();

        for (Channel destination : List.of(S0, S1)) {
            assertThatThrownBy(() -> restarted.issueSendSeq(destination)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Send sequence would not grow")
                    .hasMessageContaining("topic=" + Channel.wholeTopic(TOPIC_S))
                    .hasMessageContaining("last issued=" + Long.MAX_VALUE);
        }
        assertThat(restarted.sendSeqs()).as("nothing was issued").isEmpty();
        store.writes().clear();
        restarted.persist();
        assertThat(store.writes()).isEmpty();
    }

    @Test
    void anExhaustedPerPartitionCeilingOfAnEarlierBuildExhaustsItsWholeTopic() {
        store.put(ProtocolStore.sendSeqKey(S0), ByteBuffer.allocate(8).putLong(Long.MAX_VALUE).array());
        NodeState restarted = open();

        assertThatThrownBy(() -> restarted.issueSendSeq(S1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Send sequence would not grow").hasMessageContaining("topic=00000000:*");
        assertThat(restarted.sendSeqs()).containsExactly(Map.entry(S0, Long.MAX_VALUE));
    }

    // Rescope -----------------------------------------------------------------------------

    @Test
    void retiredInputMovesItsPastIntoCarriedAndLeavesNoKeys() {
        state.advanceFrontier(C, 0);
        state.foldChannelClock(C, clock().advanceTo(X, 3));
        state.advanceMark(C, U, 2, 0);
        state.advanceMark(D, U, 1, 0);
        state.persist();

        assertThat(state.retireInput(C)).isZero();

        NodeState restarted = restored();
        assertThat(restarted.carried()).isEqualTo(clock().advanceTo(C, 0).advanceTo(X, 3));
        assertThat(restarted.frontiers()).isEmpty();
        assertThat(restarted.marks()).containsOnlyKeys(seq(D, U));
        assertThat(store.keys()).noneMatch(k -> k.contains(C.key()));
    }

    @Test
    void retiredInputWithoutAFrontierCarriesOnlyItsClock() {
        state.foldChannelClock(C, clock().advanceTo(X, 3));

        assertThat(state.retireInput(C)).isNull();
        assertThat(state.retireInput(X)).isNull();
        assertThat(state.carried()).isEqualTo(clock().advanceTo(X, 3));
    }

    @Test
    void retiringAnInputThatHoldsRecordsFailsClosed() {
        state.hold(HeldEntry.borrowing(record(C, 3)));

        assertThatThrownBy(() -> state.retireInput(C)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("1 held records on removed input").hasMessageContaining("channel=" + C);
    }

    @Test
    void grownInputIsSeededFromWhatTheNodeKnows() {
        state.foldChannelClock(C, clock().advanceTo(X, 3));
        state.carry(clock().advanceTo(X, 5).advanceTo(D, 8));
        state.seedOwnOutput(S0, 2);
        state.advanceFrontier(D, 9);

        assertThat(state.knownOffset(X)).isEqualTo(5);
        assertThat(state.knownOffset(D)).isEqualTo(9);
        assertThat(state.knownOffset(S0)).isEqualTo(2);
        assertThat(state.knownOffset(NodeRig.E)).isEqualTo(VectorClock.NOTHING);

        state.seedInput(X, 5);

        assertThat(state.resumePositions()).containsExactly(Map.entry(X, 6L));
        assertThat(restored().frontier(X)).isEqualTo(5);
    }
}
