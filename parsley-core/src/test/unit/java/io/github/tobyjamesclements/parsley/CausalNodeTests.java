package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.NodeRig.C;
import static io.github.tobyjamesclements.parsley.NodeRig.D;
import static io.github.tobyjamesclements.parsley.NodeRig.E;
import static io.github.tobyjamesclements.parsley.NodeRig.S0;
import static io.github.tobyjamesclements.parsley.NodeRig.S1;
import static io.github.tobyjamesclements.parsley.NodeRig.TOPIC_S;
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
import static io.github.tobyjamesclements.parsley.NodeRig.topic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The receive path, the cascade and density adaptation of {@link CausalNode} (protocol.md §3-4). */
class CausalNodeTests {

    private final NodeRig rig = new NodeRig().consumes(C, D, E).sinks(TOPIC_S);

    // Receive path (§3.4) -----------------------------------------------------------------

    @Test
    void unclaimedRecordIsDeliveredWithItsOwnCoordinateAndBytes() {
        CausalNode node = rig.start();
        InboundRecord r = new InboundRecord(C, 3, null, null, -1, new byte[] {1}, new byte[] {2, 3}, 77L);

        List<Delivery> out = node.onRecord(r);

        assertThat(out).hasSize(1);
        Delivery d = out.get(0);
        assertThat(d.channel()).isEqualTo(C);
        assertThat(d.offset()).isEqualTo(3);
        assertThat(d.key()).containsExactly(1);
        assertThat(d.value()).containsExactly(2, 3);
        assertThat(d.timestamp()).isEqualTo(77L);
    }

    @Test
    void aRecordDeliveredOnArrivalIsDeliveredAsTheEntryTheHostBuilt() {
        CausalNode node = rig.start();
        HeldEntry entry = HeldEntry.received(C, 3, null, null, -1, new byte[] {1}, new byte[] {2}, 77L, null);

        assertThat(node.onRecord(entry)).singleElement().isSameAs(entry);
    }

    @Test
    void aHeldRecordIsDeliveredAsItsQueuedEntryOnItsOwnChannel() {
        CausalNode node = rig.start();
        HeldEntry held = HeldEntry.received(C, 4, clock().advanceTo(D, 0), null, -1, null, null, 0, null);
        assertThat(node.onRecord(held)).isEmpty();

        List<Delivery> out = node.onRecord(record(D, 0));

        assertThat(out).extracting(Delivery::channel, Delivery::offset).containsExactly(tuple(D, 0L), tuple(C, 4L));
        assertThat(out.get(1)).as("the queued entry, its clock copied when the call ended").isNotSameAs(held)
                .isInstanceOfSatisfying(HeldEntry.class, e -> assertThat(e.clock()).isEqualTo(clock().advanceTo(D, 0))
                        .isNotSameAs(held.clock()));
    }

    @Test
    void deliveredRecordMovesTheFrontierToItsOffset() {
        CausalNode node = rig.start();

        node.onRecord(record(C, 3));

        assertThat(node.frontier(C)).isEqualTo(3);
        assertThat(node.held()).isZero();
    }

    @Test
    void firstSightingOfAHeldRecordSeedsTheFrontierJustBelowIt() {
        CausalNode node = rig.start();

        node.onRecord(record(C, 5, clock().advanceTo(D, 0)));

        assertThat(node.frontier(C)).isEqualTo(4);
        assertThat(node.held(C)).isEqualTo(1);
    }

    @Test
    void heldFirstRecordAtOffsetZeroLeavesTheFrontierAbsent() {
        CausalNode node = rig.start();

        node.onRecord(record(C, 0, clock().advanceTo(D, 0)));

        assertThat(node.frontier(C)).isEqualTo(VectorClock.NOTHING);
        assertThat(node.state().frontiers()).doesNotContainKey(C);
        assertThat(rig.store.keys()).doesNotContain(ProtocolStore.frontierKey(C));
        assertThat(node.prepareSend(S0).clock().offsets()).doesNotContainKey(C);
    }

    @Test
    void recordWithAnEmptyClockIsDeliveredImmediately() {
        CausalNode node = rig.start();

        assertThat(coordinates(node.onRecord(record(C, 0, clock())))).containsExactly(at(C, 0));
    }

    @Test
    void recordIsHeldUntilItsClaimOnAnotherConsumedChannelIsDelivered() {
        CausalNode node = rig.start();

        assertThat(node.onRecord(record(C, 0, clock().advanceTo(D, 1)))).isEmpty();
        assertThat(node.onRecord(record(D, 0))).extracting(Delivery::offset).containsExactly(0L);
        assertThat(coordinates(node.onRecord(record(D, 1)))).containsExactly(at(D, 1), at(C, 0));
    }

    @Test
    void bridgeRevealsASkippedRunToOtherChannelsWhileTheNewRecordIsHeld() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0));
        node.onRecord(record(D, 0, clock().advanceTo(C, 3)));

        List<Delivery> out = node.onRecord(record(C, 4, clock().advanceTo(E, 0)));

        assertThat(coordinates(out)).containsExactly(at(D, 0));
        assertThat(node.frontier(C)).isEqualTo(3);
        assertThat(node.held(C)).isEqualTo(1);
    }

    /** §3.4 step 4: an arrival the gate passes is delivered first; what its frontier releases follows in the same call. */
    @Test
    void arrivalDeliveredAtOnceReleasesAnEarlierChannelsHeadInTheSameCall() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0, clock().advanceTo(D, 3)));

        assertThat(coordinates(node.onRecord(record(D, 4)))).containsExactly(at(D, 4), at(C, 0));
    }

    /** §3.4 step 4: an arrival at an empty queue that the gate passes never enters the queue nor its store keys. */
    @Test
    void arrivalTheGatePassesLeavesNoQueueEntryBehind() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0));
        node.onRecord(record(C, 1, clock().advanceTo(D, 0)));
        rig.commit();

        assertThat(rig.store.keys()).filteredOn(k -> k.startsWith("q/")).containsExactly(
                ProtocolStore.entryKey(C, 0), ProtocolStore.queueMetaKey(C));
        assertThat(NodeRig.longPair(rig.store.get(ProtocolStore.queueMetaKey(C)))).containsExactly(0L, 1L);
    }

    /** FIFO (§3.2): an arrival the gate would pass waits behind its channel's held records. */
    @Test
    void arrivalBehindAHeldRecordWaitsForIt() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0, clock().advanceTo(D, 0)));

        assertThat(node.onRecord(record(C, 1))).isEmpty();
        assertThat(node.held(C)).isEqualTo(2);
        assertThat(coordinates(node.onRecord(record(D, 0)))).containsExactly(at(D, 0), at(C, 0), at(C, 1));
    }

    /** §3.2 rule 6 on the arrival path: a tagged arrival delivered at once raises its sender's mark. */
    @Test
    void taggedArrivalDeliveredAtOnceRaisesItsSendersMark() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0, clock().advanceSeq(seq(D, U), 2)));

        assertThat(node.onRecord(tagged(D, 5, U, 2, null))).extracting(Delivery::channel).containsExactly(D, C);
        assertThat(node.state().mark(seq(D, U))).isEqualTo(new ProtocolStore.Mark(2, 5));
        assertThat(node.frontier(D)).isEqualTo(5);
    }

    @Test
    void receivedClockIsFoldedIntoTheChannelClockAtReceiveNotDelivery() {
        CausalNode node = rig.start();
        VectorClock claims = clock().advanceTo(D, 4).advanceTo(X, 9).advanceSeq(seq(E, U), 2);

        node.onRecord(record(C, 0, claims));
        rig.commit();

        assertThat(node.held(C)).isEqualTo(1);
        assertThat(node.state().channelClocks().get(C)).isEqualTo(claims);
        assertThat(ClockCodec.decode(rig.store.get(ProtocolStore.channelClockKey(C)))).isEqualTo(claims);
    }

    @Test
    void channelClockIsThePointwiseMaxOfEveryClockReceivedOnTheChannel() {
        CausalNode node = rig.start();

        node.onRecord(record(C, 0, clock().advanceTo(X, 9).advanceTo(D, 1)));
        node.onRecord(record(C, 1, clock().advanceTo(X, 4).advanceTo(E, 2)));

        assertThat(node.state().channelClocks().get(C)).isEqualTo(clock().advanceTo(X, 9).advanceTo(D, 1).advanceTo(E, 2));
        assertThat(node.state().channelClocks().get(D)).isEqualTo(clock());
    }

    @Test
    void receivedClockIsCopiedSoLaterChangesToTheCallersClockDoNotReachTheHeldRecord() {
        CausalNode node = rig.start();
        VectorClock claims = clock().advanceTo(D, 0);
        node.onRecord(record(C, 0, claims));

        claims.advanceTo(E, 5);

        assertThat(coordinates(node.onRecord(record(D, 0)))).containsExactly(at(D, 0), at(C, 0));
    }

    @Test
    void recordOnAnUnconsumedChannelFails() {
        CausalNode node = rig.start();

        assertThatThrownBy(() -> node.onRecord(record(X, 0)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Record on unconsumed channel; node=stage-task-0_0, channel=" + X);
    }

    @Test
    void recordOnAnUnconsumedChannelChangesNothing() {
        CausalNode node = rig.start();
        var before = rig.store.keys();

        assertThatThrownBy(() -> node.onRecord(record(X, 0, clock().advanceTo(C, 1))))
                .isInstanceOf(IllegalStateException.class);

        assertThat(rig.store.keys()).isEqualTo(before);
        assertThat(node.state().stampChannels()).isEmpty();
    }

    // Replay guard (§3.8) -----------------------------------------------------------------

    @Test
    void recordAtTheFrontierIsDroppedAsAReplayAndCounted() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 3));

        assertThat(node.onRecord(record(C, 3))).isEmpty();
        assertThat(node.replaysSkipped()).isEqualTo(1);
        assertThat(node.held()).isZero();
    }

    @Test
    void recordBelowTheFrontierIsDroppedWithoutFoldingItsClock() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 3));

        assertThat(node.onRecord(record(C, 1, clock().advanceTo(X, 9)))).isEmpty();
        assertThat(node.onRecord(record(C, 0))).isEmpty();

        assertThat(node.replaysSkipped()).isEqualTo(2);
        assertThat(node.state().channelClocks().get(C).isEmpty()).isTrue();
        assertThat(node.frontier(C)).isEqualTo(3);
    }

    @Test
    void replayCountStartsAtZero() {
        assertThat(rig.start().replaysSkipped()).isZero();
    }

    // Host contract H1 --------------------------------------------------------------------

    @Test
    void recordFedBelowTheQueuedTailFails() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 5, clock().advanceTo(D, 0)));
        node.onRecord(record(C, 9));

        assertThatThrownBy(() -> node.onRecord(record(C, 7)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Records fed out of offset order; channel=" + C + ", offset=7, queued tail offset=9");
    }

    @Test
    void recordFedAtTheQueuedTailOffsetFails() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 5, clock().advanceTo(D, 0)));

        assertThatThrownBy(() -> node.onRecord(record(C, 5)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("fed out of offset order");
    }

    @Test
    void failedStepLeavesTheCommittedStoreUntouched() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 5, clock().advanceTo(D, 0)));
        node.onRecord(record(C, 9));
        rig.commit();
        var committed = rig.store.keys();
        byte[] channelClock = rig.store.get(ProtocolStore.channelClockKey(C));

        assertThatThrownBy(() -> node.onRecord(record(C, 7, clock().advanceTo(X, 3))))
                .isInstanceOf(IllegalStateException.class);

        assertThat(rig.store.keys()).isEqualTo(committed);
        assertThat(rig.store.get(ProtocolStore.channelClockKey(C))).isEqualTo(channelClock);
        assertThat(rig.crash().start().state().channelClocks().get(C)).isEqualTo(clock().advanceTo(D, 0));
    }

    // Worked examples (§3.6) --------------------------------------------------------------

    /** E1: custody carries a claim through a hop that does not consume its channel. */
    @Test
    void claimThroughAnUnconsumedHopHoldsUntilItsOriginIsDelivered() {
        Channel t1 = new Channel(topic(0x71), 0);
        Channel t2 = new Channel(topic(0x72), 0);
        Channel t3 = new Channel(topic(0x73), 0);
        CausalNode a = new NodeRig().sender(new UUID(1, 0xA)).consumes(t1).sinks(t2.topicId()).start();
        CausalNode b = new NodeRig().sender(new UUID(1, 0xB)).consumes(t2).sinks(t3.topicId()).start();
        CausalNode c = new NodeRig().sender(new UUID(1, 0xC)).consumes(t1, t3).start();

        a.onRecord(record(t1, 5));
        SendStamp y = a.prepareSend(t2);
        b.onRecord(stamped(t2, 0, y));
        SendStamp z = b.prepareSend(t3);
        c.onRecord(record(t1, 3));

        assertThat(y.clock().offsets()).containsEntry(t1, 5L);
        assertThat(b.state().channelClocks().get(t2).offsets()).containsEntry(t1, 5L);
        assertThat(z.clock().offsets()).containsEntry(t1, 5L).containsEntry(t2, 0L);
        assertThat(c.onRecord(stamped(t3, 0, z))).isEmpty();
        assertThat(c.onRecord(record(t1, 4))).extracting(Delivery::offset).containsExactly(4L);
        assertThat(coordinates(c.onRecord(record(t1, 5)))).containsExactly(at(t1, 5), at(t3, 0));
    }

    /** E2: a consumer of both destinations of a fan-out delivers the sends in send order. */
    @Test
    void fanOutSendsAreDeliveredInSendOrderAtAConsumerOfBothDestinations() {
        Channel m = new Channel(topic(0x40), 0);
        Channel c2 = new Channel(topic(0xC2), 0);
        Channel c3 = new Channel(topic(0xC3), 0);
        UUID s = new UUID(2, 0x5);
        CausalNode n = new NodeRig().sender(s).consumes(m).sinks(c2.topicId(), c3.topicId()).start();
        CausalNode p = new NodeRig().sender(new UUID(2, 0x9)).consumes(c2, c3).start();
        n.onRecord(record(m, 0));

        SendStamp e1 = n.prepareSend(c2);
        SendStamp e2 = n.prepareSend(c3);

        assertThat(e1.seq()).isZero();
        assertThat(e1.clock().seqs()).isEmpty();
        assertThat(e2.seq()).isZero();
        assertThat(e2.clock().seqs()).containsExactly(Map.entry(seq(c2, s), 0L));
        assertThat(p.onRecord(stamped(c3, 0, e2))).isEmpty();
        assertThat(coordinates(p.onRecord(stamped(c2, 0, e1)))).containsExactly(at(c2, 0), at(c3, 0));
    }

    /** E3: a record queued behind a held head never bridges past it. */
    @Test
    void recordBehindAHeldHeadNeverBridgesPastIt() {
        CausalNode node = rig.start();

        node.onRecord(record(C, 0, clock().advanceTo(D, 5)));
        node.onRecord(record(C, 1));
        List<Delivery> out = node.onRecord(record(E, 0, clock().advanceTo(C, 0)));

        assertThat(out).isEmpty();
        assertThat(node.frontier(C)).isEqualTo(VectorClock.NOTHING);
        assertThat(node.held(C)).isEqualTo(2);
        assertThat(node.held(E)).isEqualTo(1);
    }

    /** E4: a position reported while the queue holds is remembered and folded when it drains. */
    @Test
    void positionAdvanceWhileHoldingIsRememberedAndFoldedOnDrain() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0, clock().advanceTo(D, 0)));

        assertThat(node.positionAdvance(C, 10)).isEmpty();
        assertThat(node.frontier(C)).isEqualTo(VectorClock.NOTHING);
        assertThat(coordinates(node.onRecord(record(D, 0)))).containsExactly(at(D, 0), at(C, 0));
        assertThat(node.frontier(C)).isEqualTo(9);
        assertThat(coordinates(node.onRecord(record(D, 1, clock().advanceTo(C, 5))))).containsExactly(at(D, 1));
    }

    // Density adaptation (§4) -------------------------------------------------------------

    /** §4.3: the skipped run below a held head is folded, so a claim on a marker inside it is met. */
    @Test
    void skipRunBelowAHeldHeadIsFoldedIntoTheFrontier() {
        CausalNode node = rig.consumes(C, D).start();

        node.onRecord(record(C, 5, clock().advanceTo(D, 0)));
        assertThat(node.frontier(C)).isEqualTo(4);
        node.onRecord(record(C, 9, clock().advanceTo(D, 1)));
        assertThat(coordinates(node.onRecord(record(D, 0)))).containsExactly(at(D, 0), at(C, 5));
        assertThat(node.frontier(C)).isEqualTo(8);
        assertThat(coordinates(node.onRecord(record(D, 1, clock().advanceTo(C, 7)))))
                .containsExactly(at(D, 1), at(C, 9));
    }

    /** §4.4: a trailing run of skips with no later record is revealed by the consumer position. */
    @Test
    void positionAdvanceResolvesAClaimOnATrailingMarker() {
        CausalNode node = rig.consumes(D, E).start();
        for (long o = 0; o <= 3; o++) {
            node.onRecord(record(D, o));
        }
        assertThat(node.onRecord(record(E, 0, clock().advanceTo(D, 4)))).isEmpty();

        List<Delivery> out = node.positionAdvance(D, 5);

        assertThat(node.frontier(D)).isEqualTo(4);
        assertThat(coordinates(out)).containsExactly(at(E, 0));
    }

    @Test
    void claimOnATrailingMarkerStaysHeldWithoutAPositionReport() {
        CausalNode node = rig.consumes(D, E).start();
        for (long o = 0; o <= 3; o++) {
            node.onRecord(record(D, o));
        }

        assertThat(node.onRecord(record(E, 0, clock().advanceTo(D, 4)))).isEmpty();
        assertThat(node.positionAdvance(E, 1)).isEmpty();
        assertThat(node.held(E)).isEqualTo(1);
    }

    @Test
    void positionAdvanceOnAnEmptyQueueMovesTheFrontierJustBelowIt() {
        CausalNode node = rig.start();

        assertThat(node.positionAdvance(C, 7)).isEmpty();

        assertThat(node.frontier(C)).isEqualTo(6);
        assertThat(rig.store.get(ProtocolStore.frontierKey(C))).as("derived at restart, never written").isNull();
        assertThat(rig.start().frontier(C)).as("from the committed position 7").isEqualTo(6);
    }

    /** §3.5: the advance is folded before the cascade runs, so heads release in one pass, in channel order. */
    @Test
    void positionAdvanceIsFoldedBeforeTheCascadeSoHeadsReleaseInChannelOrder() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0, clock().advanceTo(D, 3)));
        node.onRecord(record(E, 0, clock().advanceTo(D, 3)));

        assertThat(coordinates(node.positionAdvance(D, 4))).containsExactly(at(C, 0), at(E, 0));
    }

    @Test
    void positionAdvanceAtOrBelowTheFrontierChangesNothing() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 6));

        node.positionAdvance(C, 7);
        node.positionAdvance(C, 3);

        assertThat(node.frontier(C)).isEqualTo(6);
    }

    @Test
    void positionAdvanceOnAnUnconsumedChannelFails() {
        CausalNode node = rig.start();

        assertThatThrownBy(() -> node.positionAdvance(X, 4))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Position advance on unconsumed channel; node=stage-task-0_0, channel=" + X);
    }

    /** §16.10: an absent position means nothing is known, and position 0 means nothing was fetched. */
    @Test
    void absentOrZeroPositionMeansNothingKnown() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0, clock().advanceTo(D, 0)));

        assertThat(node.positionAdvance(D, 0)).isEmpty();
        assertThat(node.onRecord(record(E, 0))).hasSize(1);

        assertThat(node.frontier(D)).isEqualTo(VectorClock.NOTHING);
        assertThat(node.held(C)).isEqualTo(1);
        assertThat(node.state().frontiers()).doesNotContainKey(D);
        assertThat(rig.store.keys()).doesNotContain(ProtocolStore.frontierKey(D));
    }

    @Test
    void drainedChannelWithoutAPositionReportKeepsItsFrontierAtTheLastDelivery() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 4, clock().advanceTo(D, 0)));

        node.onRecord(record(D, 0));

        assertThat(node.frontier(C)).isEqualTo(4);
    }

    // Cascade (§3.3) ----------------------------------------------------------------------

    @Test
    void cascadeRunsToAFixpointAcrossChannels() {
        CausalNode node = rig.start();
        node.onRecord(record(E, 0, clock().advanceTo(D, 0)));
        node.onRecord(record(D, 0, clock().advanceTo(C, 0)));

        assertThat(coordinates(node.onRecord(record(C, 0)))).containsExactly(at(C, 0), at(D, 0), at(E, 0));
    }

    /** §3.3: the ring goes on past the channel that changed and wraps round until every other channel was visited. */
    @Test
    void cascadeWrapsRoundTheRingToAHeadAnEarlierChannelReleased() {
        CausalNode node = rig.start();
        node.onRecord(record(D, 0, clock().advanceTo(E, 0)));
        node.onRecord(record(C, 0, clock().advanceTo(D, 0)));

        assertThat(coordinates(node.onRecord(record(E, 0)))).containsExactly(at(E, 0), at(D, 0), at(C, 0));
        assertThat(node.held()).isZero();
    }

    @Test
    void heldHeadBlocksOnlyItsOwnChannel() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0, clock().advanceTo(D, 0)));

        assertThat(coordinates(node.onRecord(record(C, 1)))).isEmpty();
        assertThat(coordinates(node.onRecord(record(E, 0)))).containsExactly(at(E, 0));
        assertThat(coordinates(node.onRecord(record(D, 0)))).containsExactly(at(D, 0), at(C, 0), at(C, 1));
    }

    @Test
    void heldCountsCoverEveryQueue() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0, clock().advanceTo(D, 0)));
        node.onRecord(record(C, 1));
        node.onRecord(record(E, 0, clock().advanceTo(D, 0)));

        assertThat(node.held()).isEqualTo(3);
        assertThat(node.held(C)).isEqualTo(2);
        assertThat(node.held(E)).isEqualTo(1);
        assertThat(node.held(D)).isZero();
        assertThat(node.held(X)).isZero();
    }

    // Sequence marks (§3.2 rule 6) --------------------------------------------------------

    @Test
    void deliveringATaggedRecordRecordsItsSendersMark() {
        CausalNode node = rig.start();

        node.onRecord(tagged(C, 4, U, 7, null));

        assertThat(node.state().marks()).containsExactly(Map.entry(seq(C, U), new ProtocolStore.Mark(7, 4)));
    }

    @Test
    void untaggedRecordLeavesNoMark() {
        CausalNode node = rig.start();

        node.onRecord(record(C, 4, clock().advanceTo(X, 1)));

        assertThat(node.state().marks()).isEmpty();
    }

    @Test
    void markOnlyAdvancesOnAHigherSequence() {
        CausalNode node = rig.start();
        node.onRecord(tagged(C, 0, U, 5, null));

        node.onRecord(tagged(C, 1, U, 5, null));
        node.onRecord(tagged(C, 2, U, 3, null));
        assertThat(node.state().marks().get(seq(C, U))).isEqualTo(new ProtocolStore.Mark(5, 0));

        node.onRecord(tagged(C, 3, U, 6, null));
        assertThat(node.state().marks().get(seq(C, U))).isEqualTo(new ProtocolStore.Mark(6, 3));
    }

    @Test
    void marksArePerChannelAndSender() {
        CausalNode node = rig.start();

        node.onRecord(tagged(C, 0, U, 5, null));
        node.onRecord(tagged(C, 1, V, 2, null));
        node.onRecord(tagged(D, 0, U, 1, null));

        assertThat(node.state().marks()).containsExactly(
                Map.entry(seq(C, U), new ProtocolStore.Mark(5, 0)),
                Map.entry(seq(C, V), new ProtocolStore.Mark(2, 1)),
                Map.entry(seq(D, U), new ProtocolStore.Mark(1, 0)));
    }

    @Test
    void sequenceClaimIsHeldUntilTheSendersMarkReachesIt() {
        CausalNode node = rig.start();
        node.onRecord(record(D, 0, clock().advanceSeq(seq(C, U), 2)));

        assertThat(node.onRecord(tagged(C, 0, U, 1, null))).extracting(Delivery::channel).containsExactly(C);
        assertThat(node.onRecord(tagged(C, 1, V, 9, null))).extracting(Delivery::channel).containsExactly(C);
        assertThat(coordinates(node.onRecord(tagged(C, 2, U, 2, null)))).containsExactly(at(C, 2), at(D, 0));
    }

    // Store footprint (§10.4) -------------------------------------------------------------

    /** The "one of everything" key set, in this project's layout (former sink heal writes {@code ca}). */
    @Test
    void storeHoldsExactlyOneKeyPerPieceOfStateAfterOneOfEverything() {
        Channel sink = new Channel(NodeRig.TOPIC_S, 0);
        rig.consumes(C, D).sinks(NodeRig.TOPIC_S, NodeRig.TOPIC_T);
        rig.broker.end(NodeRig.T0, 3).topic(NodeRig.TOPIC_D, 1);
        rig.start();
        CausalNode node = rig.sinks(NodeRig.TOPIC_S).start();

        node.onRecord(tagged(C, 0, U, 0, clock().advanceTo(X, 4)));
        node.onRecord(tagged(C, 1, U, 1, clock().advanceTo(D, 0)));
        node.prepareSend(sink);
        rig.broker.logStart(X, 5);
        node.truncateToLogStarts();
        rig.commit();

        assertThat(rig.store.keys()).containsExactly(
                "ca",
                "cc/" + C.key(),
                "ds/" + C.key() + "/" + U,
                "f/" + C.key(),
                "q/" + C.key() + "/e/0000000000000000",
                "q/" + C.key() + "/m",
                "scope",
                // the send's topic's reserved ceiling, and its partition's sent-here mark (§6.2, §6.4)
                "sq/" + Channel.wholeTopic(NodeRig.TOPIC_S).key(),
                "sq/" + sink.key());
    }

    // Whole-topic claims and probes (§3.9) ----------------------------------------------------

    private static final Channel C1 = new Channel(C.topicId(), 1);

    /** A head on D claiming U's sends to C's whole topic at 5, met on C by U's mark, not on C1 (U's 2 there). */
    private CausalNode headWaitingOnC1() {
        CausalNode node = rig.consumes(C, C1, D, E).start();
        node.onRecord(tagged(C, 0, U, 5, null));
        node.onRecord(tagged(C1, 0, U, 2, null));
        assertThat(node.onRecord(record(D, 0, clock().advanceSeq(seq(Channel.wholeTopic(C.topicId()), U), 5)))).isEmpty();
        return node;
    }

    @Test
    void aHeadWaitingOnAWholeTopicClaimWantsAProbeOfThePartitionItsMarkLeavesOpen() {
        CausalNode node = headWaitingOnC1();

        assertThat(node.state().probesWanted()).containsExactly(C1);
        assertThat(node.explainHeads()).singleElement().satisfies(h -> assertThat(h.unmet())
                .containsExactly(new Gate.Unmet(HeldRecord.Diagnosis.SENDER_BEHIND, C1, U, 5, 2)));
    }

    @Test
    void aProbeAnsweredAtAPositionAlreadyReachedReleasesTheHead() {
        CausalNode node = headWaitingOnC1();
        Probes.Ticket ticket = node.startProbe(C1);

        assertThat(node.state().probesWanted()).isEmpty();
        assertThat(coordinates(node.probeAnswered(ticket, 1))).containsExactly(at(D, 0));
    }

    @Test
    void aProbeAnsweredAboveThePositionReleasesTheHeadOnlyOnceThePositionReachesIt() {
        CausalNode node = headWaitingOnC1();
        Probes.Ticket ticket = node.startProbe(C1);

        assertThat(node.probeAnswered(ticket, 4)).as("C1's records 1 to 3 may be U's").isEmpty();
        assertThat(node.positionAdvance(C1, 3)).isEmpty();
        assertThat(coordinates(node.positionAdvance(C1, 4))).containsExactly(at(D, 0));
    }

    @Test
    void aProbeDoesNotReleaseAHeadWhileTheSendersRecordAtOrBelowTheClaimIsQueued() {
        CausalNode node = headWaitingOnC1();
        // U's seq 4 on C1, held behind a claim on E that nothing meets
        assertThat(node.onRecord(tagged(C1, 1, U, 4, clock().advanceTo(E, 0)))).isEmpty();
        Probes.Ticket ticket = node.startProbe(C1);

        assertThat(node.probeAnswered(ticket, 2)).isEmpty();
        assertThat(coordinates(node.onRecord(record(E, 0)))).as("E@0 releases C1@1; U's 4 is no longer queued, so the answer now meets the claim U's mark 4 does not")
                .containsExactly(at(E, 0), at(C1, 1), at(D, 0));
    }

    @Test
    void aProbeStartedBeforeTheHeadArrivedDoesNotCountForIt() {
        CausalNode node = rig.consumes(C, C1, D).start();
        node.onRecord(tagged(C, 0, U, 5, null));
        Probes.Ticket early = node.startProbe(C1);
        node.onRecord(record(D, 0, clock().advanceSeq(seq(Channel.wholeTopic(C.topicId()), U), 5)));

        assertThat(node.probeAnswered(early, 0)).isEmpty();
        assertThat(node.state().probesWanted()).as("asked again").containsExactly(C1);
        assertThat(coordinates(node.probeAnswered(node.startProbe(C1), 0))).containsExactly(at(D, 0));
    }

    @Test
    void aHeadKeepsTheOldestAnswerThatCoversItSoALaterProbesHigherWatermarkDoesNotMoveItsWait() {
        CausalNode node = headWaitingOnC1();
        Probes.Ticket first = node.startProbe(C1);
        assertThat(node.probeAnswered(first, 4)).isEmpty();
        // a second head arrives after the first probe started: it wants its own, which reads a higher watermark
        assertThat(node.onRecord(record(E, 0, clock().advanceSeq(seq(Channel.wholeTopic(C.topicId()), U), 5)))).isEmpty();
        assertThat(node.state().probesWanted()).as("the first answer does not cover E@0").containsExactly(C1);
        assertThat(node.probeAnswered(node.startProbe(C1), 9)).isEmpty();

        assertThat(coordinates(node.positionAdvance(C1, 4)))
                .as("D@0 waits for the first answer's 4, not the second's 9: under a steady flow the latest would run ahead")
                .containsExactly(at(D, 0));
        assertThat(node.positionAdvance(C1, 8)).isEmpty();
        assertThat(coordinates(node.positionAdvance(C1, 9))).containsExactly(at(E, 0));
    }

    @Test
    void aRestoredHeadWaitingOnAWholeTopicClaimAsksForItsProbeAtInitAndAProbeStartedThenCoversIt() {
        headWaitingOnC1();
        CausalNode restarted = rig.start();

        assertThat(restarted.held()).isEqualTo(1);
        assertThat(restarted.state().probesWanted()).as("asked at init: no record or position may come to run the gate")
                .containsExactly(C1);
        assertThat(restarted.probeAnswered(restarted.startProbe(C1), 1)).as("no position known on C1 yet").isEmpty();
        assertThat(coordinates(restarted.positionAdvance(C1, 1)))
                .as("restored, so arrived before any probe of this incarnation").containsExactly(at(D, 0));
    }

    @Test
    void aPositionAdvanceOnAChannelThatHoldsRecordsStillReleasesAHeadElsewhereThroughItsProbe() {
        CausalNode node = headWaitingOnC1();
        // C1@1 is U's seq 9, held on a claim on E that nothing meets: C1's queue holds while its position moves
        assertThat(node.onRecord(tagged(C1, 1, U, 9, clock().advanceTo(E, 0)))).isEmpty();
        assertThat(node.probeAnswered(node.startProbe(C1), 4)).isEmpty();

        assertThat(coordinates(node.positionAdvance(C1, 4))).containsExactly(at(D, 0));
    }

    @Test
    void aProbeOfAnUnconsumedChannelIsRefused() {
        CausalNode node = rig.start();

        assertThatThrownBy(() -> node.startProbe(X)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Probe of an unconsumed channel; node=stage-task-0_0, channel=" + X);
    }

    @Test
    void heldRecordIsPersistedWithTheClockItArrivedWithThoughTheCallerReusesTheClockBeforeTheCommit() {
        CausalNode node = rig.start();
        VectorClock reused = clock().advanceTo(D, 4);

        node.onRecord(record(C, 0, reused));
        reused.advanceTo(D, 9).advanceTo(X, 2);
        node.onRecord(record(C, 1));
        rig.commit();

        assertThat(HeldEntryEnvelope.decode(C, rig.store.get(ProtocolStore.entryKey(C, 0))).clock())
                .as("persisted calls after it was held, as it arrived").isEqualTo(clock().advanceTo(D, 4));
        assertThat(rig.start().state().head(C).clock()).isEqualTo(clock().advanceTo(D, 4));
    }

    @Test
    void writesWaitForThePersistAndAKeyChangedByManyCallsIsWrittenOnce() {
        CausalNode node = rig.start();
        rig.commit();
        int before = rig.store.writes().size();

        for (int i = 0; i < 5; i++) {
            node.onRecord(record(C, i, clock().advanceTo(X, i)));
        }
        assertThat(node.state().unpersisted()).isTrue();
        assertThat(rig.store.writes()).as("nothing written before the persist").hasSize(before);

        rig.commit();

        assertThat(node.state().unpersisted()).isFalse();
        assertThat(rig.store.writes().subList(before, rig.store.writes().size()))
                .as("the channel clock rose five times, written once").containsOnlyOnce("put cc/" + C.key());
        assertThat(ClockCodec.decode(rig.store.get(ProtocolStore.channelClockKey(C)))).isEqualTo(clock().advanceTo(X, 4));
    }

    @Test
    void aHeldRecordWrittenByOneCommitIsDeletedByTheCommitAfterItsRelease() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0, clock().advanceTo(D, 0)));
        rig.commit();
        assertThat(rig.store.get(ProtocolStore.entryKey(C, 0))).as("held across a commit: written").isNotNull();

        node.onRecord(record(D, 0));
        assertThat(node.state().unpersisted()).isTrue();
        rig.commit();

        assertThat(rig.store.keys()).noneMatch(k -> k.contains("/e/"));
    }

    @Test
    void aSendThatReservesASequenceBlockLeavesAWriteForTheNextCommit() {
        CausalNode node = rig.sinks(TOPIC_S).start();
        rig.commit();
        assertThat(node.state().unpersisted()).isFalse();

        node.prepareSend(S0);

        assertThat(node.state().unpersisted()).as("the reserved ceiling waits for the commit").isTrue();
        rig.commit();
        assertThat(NodeRig.longValue(rig.store.get(ProtocolStore.sendSeqKey(S0)))).isZero();
    }

    @Test
    void deliveredRecordLeavesNoEntryInTheStore() {
        CausalNode node = rig.start();

        node.onRecord(record(C, 0, clock().advanceTo(D, 0)));
        node.onRecord(record(D, 0));
        rig.commit();

        assertThat(rig.store.keys()).noneMatch(k -> k.contains("/e/"));
        assertThat(rig.store.get(ProtocolStore.queueMetaKey(C)))
                .as("held and released between two commits: the queue's index never left the write buffer").isNull();
        assertThat(rig.start().held(C)).isZero();
    }

    @Test
    void receivedThroughIsTheLastHeldRecordOrTheFrontier() {
        CausalNode node = rig.start();
        assertThat(node.receivedThrough(C)).as("nothing received").isEqualTo(VectorClock.NOTHING);
        assertThat(node.receivedThrough(X)).as("an unconsumed channel").isEqualTo(VectorClock.NOTHING);

        node.onRecord(record(C, 3));
        assertThat(node.receivedThrough(C)).as("delivered: the frontier").isEqualTo(3);

        node.onRecord(record(C, 7, clock().advanceTo(D, 0)));
        node.onRecord(record(C, 9));
        assertThat(node.receivedThrough(C)).as("held above the frontier: the queue's tail").isEqualTo(9);
        assertThat(node.frontier(C)).isEqualTo(6);

        node.onRecord(record(D, 0));
        node.positionAdvance(C, 20);
        assertThat(node.receivedThrough(C)).as("drained, then skipped past: the frontier again").isEqualTo(19);
    }

    @Test
    void recordHeldAfterUnpersistedEmptyIndicesRestoresAndDelivers() {
        CausalNode node = rig.start();
        for (long offset = 0; offset < 5; offset++) {
            node.onRecord(record(C, offset));
        }
        assertThat(rig.store.get(ProtocolStore.queueMetaKey(C))).as("C never held: its index is not written").isNull();
        node.onRecord(record(C, 5, clock().advanceTo(D, 0)));

        CausalNode restarted = rig.start();
        assertThat(restarted.held()).isEqualTo(1);
        List<Delivery> out = restarted.onRecord(record(D, 0));

        assertThat(out).extracting(Delivery::channel, Delivery::offset).containsExactly(tuple(D, 0L), tuple(C, 5L));
        assertThat(rig.start().held()).isZero();
    }

    // Truncation (§8) ---------------------------------------------------------------------

    /** Builds carried ancestry {@code {X:0→40, Y:2→7}} by removing inputs X and Y:2 across a restart. */
    private CausalNode nodeCarrying() {
        NodeRig r = new NodeRig().consumes(C, X, NodeRig.Y).sinks(TOPIC_S);
        CausalNode first = r.start();
        first.onRecord(record(X, 40));
        first.onRecord(record(NodeRig.Y, 7));
        CausalNode node = r.consumes(C).start();
        assertThat(node.state().carried()).isEqualTo(clock().advanceTo(X, 40).advanceTo(NodeRig.Y, 7));
        carryingRig = r;
        return node;
    }

    private NodeRig carryingRig;

    /** §8.2 worked example. */
    @Test
    void truncationToLogStartsDropsEntriesAtOrBelowTheLogStartMinusOne() {
        CausalNode node = nodeCarrying();

        node.truncateToLogStarts(Map.of(X, 41L, NodeRig.Y, 3L), java.util.Set.of());

        assertThat(node.state().carried()).isEqualTo(clock().advanceTo(NodeRig.Y, 7));
    }

    @Test
    void entryAtTheLogStartIsKept() {
        CausalNode node = nodeCarrying();

        node.truncateToLogStarts(Map.of(X, 40L, NodeRig.Y, 8L), java.util.Set.of());

        assertThat(node.state().carried()).isEqualTo(clock().advanceTo(X, 40));
    }

    @Test
    void logStartZeroEverywhereTruncatesNothing() {
        CausalNode node = nodeCarrying();
        byte[] before = carryingRig.store.get("ca");

        node.truncateToLogStarts(Map.of(X, 0L, NodeRig.Y, 0L), java.util.Set.of());

        assertThat(node.state().carried()).isEqualTo(clock().advanceTo(X, 40).advanceTo(NodeRig.Y, 7));
        assertThat(carryingRig.store.get("ca")).isEqualTo(before);
    }

    @Test
    void confirmedAbsentTopicDropsAllItsEntries() {
        CausalNode node = nodeCarrying();

        node.truncateToLogStarts(Map.of(), java.util.Set.of(X));

        assertThat(node.state().carried()).isEqualTo(clock().advanceTo(NodeRig.Y, 7));
    }

    @Test
    void truncationIsPersistedAndSurvivesARestart() {
        CausalNode node = nodeCarrying();

        node.truncateToLogStarts(Map.of(X, 41L), java.util.Set.of());

        assertThat(carryingRig.start().state().carried()).isEqualTo(clock().advanceTo(NodeRig.Y, 7));
    }

    @Test
    void truncationDropsEntriesOfAdvertisedClocksAndPersistsThem() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0, clock().advanceTo(X, 5).advanceTo(NodeRig.Y, 9)));
        node.onRecord(record(E, 0, clock().advanceTo(X, 2)));

        node.truncate(clock().advanceTo(X, 5));

        assertThat(node.state().channelClocks().get(C)).isEqualTo(clock().advanceTo(NodeRig.Y, 9));
        assertThat(node.state().channelClocks().get(E).isEmpty()).isTrue();
        assertThat(rig.start().state().channelClocks().get(C)).isEqualTo(clock().advanceTo(NodeRig.Y, 9));
        assertThat(rig.start().state().channelClocks().get(E).isEmpty()).isTrue();
    }

    @Test
    void truncationLeavesFrontierAndOwnOutputsUntouched() {
        rig.start().prepareSend(S0);
        rig.broker.end(S0, 5);
        CausalNode node = rig.start();
        node.onRecord(record(C, 3));

        node.truncate(clock().advanceTo(C, 100).advanceTo(S0, 100));

        assertThat(node.frontier(C)).isEqualTo(3);
        assertThat(node.state().ownOutputs()).isEqualTo(clock().advanceTo(S0, 4));
        assertThat(node.prepareSend(S1).clock()).isEqualTo(clock().advanceTo(C, 3).advanceTo(S0, 4));
    }

    @Test
    void truncationLeavesSequenceEntriesUntouched() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0, clock().advanceTo(X, 1).advanceSeq(seq(X, U), 1)));

        node.truncateToLogStarts(Map.of(), java.util.Set.of(X));

        assertThat(node.state().channelClocks().get(C)).isEqualTo(clock().advanceSeq(seq(X, U), 1));
    }

    @Test
    void truncationThatRemovesNothingWritesNothing() {
        CausalNode node = rig.start();
        node.onRecord(record(C, 0, clock().advanceTo(X, 5)));
        rig.store.delete(ProtocolStore.channelClockKey(C));

        node.truncate(clock().advanceTo(X, 4).advanceTo(D, 9));

        assertThat(rig.store.keys()).doesNotContain("ca", ProtocolStore.channelClockKey(C));
    }

    @Test
    void stampChannelsAreTheOffsetChannelsOfCarriedAncestryAndAdvertisedClocks() {
        CausalNode node = nodeCarrying();
        node.onRecord(record(C, 0, clock().advanceTo(E, 2).advanceSeq(seq(D, U), 1)));

        assertThat(node.state().stampChannels()).containsExactly(E, X, NodeRig.Y);
    }

    @Test
    void truncationSweepAsksTheBrokerAboutTheStampChannels() {
        CausalNode node = nodeCarrying();
        carryingRig.broker.logStart(X, 41).logStart(NodeRig.Y, 3);

        node.truncateToLogStarts();

        assertThat(carryingRig.broker.logStartQueries()).containsExactly(java.util.Set.of(X, NodeRig.Y));
        assertThat(node.state().carried()).isEqualTo(clock().advanceTo(NodeRig.Y, 7));
    }

    @Test
    void truncationSweepDropsEveryEntryOfADeletedTopic() {
        CausalNode node = nodeCarrying();
        carryingRig.broker.logStart(NodeRig.Y, 0);

        node.truncateToLogStarts();

        assertThat(node.state().carried()).isEqualTo(clock().advanceTo(NodeRig.Y, 7));
    }

    @Test
    void truncationSweepKeepsEveryClaimOnATopicItCannotSee() {
        CausalNode node = nodeCarrying();
        carryingRig.broker.logStart(NodeRig.Y, 3).hide(X.topicId());

        BrokerOffsets.LogStarts seen = node.truncateToLogStarts();

        assertThat(node.state().carried()).isEqualTo(clock().advanceTo(X, 40).advanceTo(NodeRig.Y, 7));
        assertThat(seen.unresolvedTopics()).containsExactly(X.topicId());
    }
}
