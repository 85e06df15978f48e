package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.NodeRig.C;
import static io.github.tobyjamesclements.parsley.NodeRig.D;
import static io.github.tobyjamesclements.parsley.NodeRig.E;
import static io.github.tobyjamesclements.parsley.NodeRig.S0;
import static io.github.tobyjamesclements.parsley.NodeRig.T0;
import static io.github.tobyjamesclements.parsley.NodeRig.TOPIC_S;
import static io.github.tobyjamesclements.parsley.NodeRig.TOPIC_T;
import static io.github.tobyjamesclements.parsley.NodeRig.U;
import static io.github.tobyjamesclements.parsley.NodeRig.V;
import static io.github.tobyjamesclements.parsley.NodeRig.X;
import static io.github.tobyjamesclements.parsley.NodeRig.at;
import static io.github.tobyjamesclements.parsley.NodeRig.clock;
import static io.github.tobyjamesclements.parsley.NodeRig.coordinates;
import static io.github.tobyjamesclements.parsley.NodeRig.record;
import static io.github.tobyjamesclements.parsley.NodeRig.seq;
import static io.github.tobyjamesclements.parsley.NodeRig.tagged;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Init, restore and rescope of a {@link CausalNode} (protocol.md §7, §9). */
class RescopeTests {

    private final NodeRig rig = new NodeRig().consumes(C, D).sinks(TOPIC_S);

    // Restore (§7.1) ----------------------------------------------------------------------

    @Test
    void restartRestoresFrontiersChannelClocksMarksAndSendSequences() {
        CausalNode first = rig.start();
        first.onRecord(tagged(C, 3, U, 7, clock().advanceTo(X, 2).advanceSeq(seq(X, V), 1)));
        first.onRecord(record(D, 0, clock().advanceTo(C, 9)));
        first.prepareSend(S0);

        CausalNode node = rig.start();

        assertThat(node.state().frontiers()).containsExactly(Map.entry(C, 3L));
        assertThat(node.state().channelClocks()).containsExactly(
                Map.entry(C, clock().advanceTo(X, 2).advanceSeq(seq(X, V), 1)),
                Map.entry(D, clock().advanceTo(C, 9)));
        assertThat(node.state().marks()).containsExactly(Map.entry(seq(C, U), new ProtocolStore.Mark(7, 3)));
        assertThat(node.state().sendSeqs()).containsExactly(Map.entry(S0, 0L));
        assertThat(node.state().baselineSeqs()).containsOnly(Map.entry(S0, 0L));
        assertThat(node.held(D)).isEqualTo(1);
    }

    @Test
    void restoredHeldRecordsAreDeliveredInOrderWithTheirBytesAndTags() {
        CausalNode first = rig.start();
        first.onRecord(new InboundRecord(C, 5, clock().advanceTo(D, 0), U, 2, new byte[] {7}, null, 50L));
        first.onRecord(new InboundRecord(C, 6, null, null, -1, null, new byte[] {8, 9}, 60L));

        CausalNode node = rig.start();
        List<Delivery> out = node.onRecord(record(D, 0));

        assertThat(coordinates(out)).containsExactly(at(D, 0), at(C, 5), at(C, 6));
        assertThat(out.get(1).key()).containsExactly(7);
        assertThat(out.get(1).value()).isNull();
        assertThat(out.get(1).timestamp()).isEqualTo(50L);
        assertThat(out.get(2).key()).isNull();
        assertThat(out.get(2).value()).containsExactly(8, 9);
        assertThat(node.state().marks()).containsExactly(Map.entry(seq(C, U), new ProtocolStore.Mark(2, 5)));
    }

    @Test
    void restoredHeldRecordKeepsEmptyBytesDistinctFromNull() {
        rig.start().onRecord(new InboundRecord(C, 0, clock().advanceTo(D, 0), null, -1, new byte[0], null, 0L));

        List<Delivery> out = rig.start().onRecord(record(D, 0));

        assertThat(out.get(1).key()).isEmpty();
        assertThat(out.get(1).value()).isNull();
    }

    @Test
    void restoredQueueContinuesItsIndices() {
        CausalNode first = rig.start();
        first.onRecord(record(C, 0));
        first.onRecord(record(C, 1, clock().advanceTo(D, 0)));

        CausalNode node = rig.start();
        node.onRecord(record(C, 2));
        rig.commit();

        assertThat(rig.store.keys()).filteredOn(k -> k.contains("/e/")).containsExactly(
                ProtocolStore.entryKey(C, 0), ProtocolStore.entryKey(C, 1));
        assertThat(NodeRig.longPair(rig.store.get(ProtocolStore.queueMetaKey(C)))).containsExactly(0L, 2L);
    }

    @Test
    void restoredHoldIsNotAssumedToHaveAPosition() {
        CausalNode first = rig.start();
        first.onRecord(record(C, 4, clock().advanceTo(D, 0)));
        first.positionAdvance(C, 20);

        CausalNode node = rig.start();
        node.onRecord(record(D, 0));

        assertThat(node.frontier(C)).isEqualTo(4);
    }

    @Test
    void holdQueueRestoringFewerEntriesThanItsIndicesClaimFails() {
        CausalNode first = rig.start();
        first.onRecord(record(C, 0));
        first.onRecord(record(C, 1, clock().advanceTo(D, 0)));
        first.onRecord(record(C, 2));
        rig.commit();
        rig.store.delete(ProtocolStore.entryKey(C, 1));

        assertThatThrownBy(rig::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Hold queue for " + C + " restored 1 of 2 entries");
    }

    @Test
    void entriesOutsideTheQueueIndicesAreIgnoredAtRestore() {
        CausalNode first = rig.start();
        first.onRecord(record(C, 0, clock().advanceTo(D, 0)));
        rig.store.put(ProtocolStore.entryKey(C, 7), HeldEntryEnvelope.encode(
                HeldEntry.borrowing(record(C, 9))));

        assertThat(rig.start().held(C)).isEqualTo(1);
    }

    @Test
    void declaredSinkThatCannotBeResolvedFailsInit() {
        NodeConfig config = rig.config();

        assertThatThrownBy(() -> new CausalNode(config, new TestStateStore(), new TestBrokerOffsets(), Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Cannot resolve sink end offsets; node=stage-task-0_0, topic=" + TOPIC_S);
    }

    @Test
    void initRecordsTheDeclaredScope() {
        rig.start();

        assertThat(rig.store.keys()).containsExactly("scope");
        assertThat(new ProtocolStore(rig.store).scope())
                .isEqualTo(new ProtocolStore.Scope(new java.util.TreeSet<>(List.of(C, D)),
                        new java.util.TreeSet<>(List.of(TOPIC_S))));
    }

    // Former sinks (§7.2 step 1, §16.2) ---------------------------------------------------

    @Test
    void formerSinkIsHealedIntoCarriedAncestryByTopicId() {
        rig.sinks(TOPIC_S, TOPIC_T);
        rig.broker.topic(TOPIC_T, 3).end(T0, 5).end(new Channel(TOPIC_T, 2), 1);
        rig.start();

        CausalNode node = rig.sinks(TOPIC_S).start();

        assertThat(node.state().carried()).isEqualTo(clock().advanceTo(T0, 4).advanceTo(new Channel(TOPIC_T, 2), 0));
        assertThat(ClockCodec.decode(rig.store.get("ca"))).isEqualTo(node.state().carried());
    }

    @Test
    void formerSinkThatNoLongerExistsYieldsNothing() {
        rig.sinks(TOPIC_S, TOPIC_T);
        rig.broker.end(T0, 5);
        rig.start();
        rig.broker.delete(TOPIC_T);

        CausalNode node = rig.sinks(TOPIC_S).start();

        assertThat(node.state().carried().isEmpty()).isTrue();
    }

    @Test
    void healIsPersistedAndNotRepeated() {
        rig.sinks(TOPIC_S, TOPIC_T);
        rig.broker.end(T0, 5);
        rig.start();
        rig.sinks(TOPIC_S).start();
        rig.broker.end(T0, 9);

        CausalNode node = rig.start();

        assertThat(node.state().carried()).isEqualTo(clock().advanceTo(T0, 4));
    }

    // Shrunk inputs (§7.2 step 2) ---------------------------------------------------------

    @Test
    void removedInputWithHeldRecordsFailsInit() {
        CausalNode first = rig.start();
        first.onRecord(record(D, 3, clock().advanceTo(C, 0)));
        first.onRecord(record(D, 4));

        assertThatThrownBy(() -> rig.consumes(C).start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("2 held records on removed input; node=stage-task-0_0, channel=" + D
                        + "; redeclare the input or perform a full reset (fail closed)");
    }

    @Test
    void removedInputMovesItsFrontierAndChannelClockIntoCarriedAncestry() {
        CausalNode first = rig.start();
        first.onRecord(tagged(D, 6, U, 1, clock().advanceTo(X, 3).advanceSeq(seq(E, V), 2)));

        CausalNode node = rig.consumes(C).start();

        assertThat(node.state().carried()).isEqualTo(clock().advanceTo(D, 6).advanceTo(X, 3).advanceSeq(seq(E, V), 2));
        assertThat(node.state().frontiers()).isEmpty();
        assertThat(node.state().channelClocks()).containsOnlyKeys(C);
        assertThat(node.prepareSend(S0).clock()).isEqualTo(node.state().carried());
    }

    @Test
    void removedInputDeletesItsKeys() {
        CausalNode first = rig.start();
        first.onRecord(tagged(D, 6, U, 1, clock().advanceTo(X, 3)));
        first.onRecord(tagged(C, 0, U, 4, null));

        rig.consumes(C).start();

        assertThat(rig.store.keys()).containsExactly(
                "ca", "ds/" + C.key() + "/" + U, "f/" + C.key(), "scope");
    }

    @Test
    void removedInputsCarriedPastSurvivesTheNextRestart() {
        CausalNode first = rig.start();
        first.onRecord(record(D, 6, clock().advanceTo(X, 3)));
        rig.consumes(C).start();

        CausalNode node = rig.start();

        assertThat(node.state().carried()).isEqualTo(clock().advanceTo(D, 6).advanceTo(X, 3));
    }

    @Test
    void removedInputDeliveredOnlyAtOffsetZeroIsStillClaimed() {
        rig.start().onRecord(record(D, 0));

        CausalNode node = rig.consumes(C).start();

        assertThat(node.state().carried()).isEqualTo(clock().advanceTo(D, 0));
    }

    @Test
    void removedInputThatNeverReceivedAnythingLeavesNothing() {
        rig.start();

        CausalNode node = rig.consumes(C).start();

        assertThat(node.state().carried().isEmpty()).isTrue();
        assertThat(rig.store.keys()).containsExactly("ca", "scope");
    }

    @Test
    void removedInputsMarksAreForgottenButOtherChannelsMarksAreKept() {
        CausalNode first = rig.start();
        first.onRecord(tagged(D, 0, U, 3, null));
        first.onRecord(tagged(C, 0, U, 2, null));

        CausalNode node = rig.consumes(C).start();
        node.onRecord(record(C, 1, clock().advanceSeq(seq(D, U), 3).advanceSeq(seq(C, U), 2)));

        assertThat(node.state().marks()).containsOnlyKeys(seq(C, U));
        assertThat(node.prepareSend(S0).clock().seqs()).containsExactly(Map.entry(seq(D, U), 3L));
    }

    // Grown inputs (§7.2 step 3) ----------------------------------------------------------

    @Test
    void grownInputIsSeededFromAdvertisedKnowledge() {
        rig.start().onRecord(record(C, 0, clock().advanceTo(E, 7)));

        CausalNode node = rig.consumes(C, D, E).start();

        assertThat(node.frontier(E)).isEqualTo(7);
        assertThat(node.resumePositions()).containsExactly(Map.entry(E, 8L));
        assertThat(NodeRig.longValue(rig.store.get(ProtocolStore.frontierKey(E)))).isEqualTo(7);
    }

    @Test
    void refetchedPrefixOfAGrownInputIsDroppedAsReplays() {
        rig.start().onRecord(record(C, 0, clock().advanceTo(E, 7)));
        CausalNode node = rig.consumes(C, D, E).start();

        assertThat(node.onRecord(record(E, 6))).isEmpty();
        assertThat(node.onRecord(record(E, 7))).isEmpty();
        assertThat(node.onRecord(record(E, 8))).hasSize(1);
        assertThat(node.replaysSkipped()).isEqualTo(2);
    }

    @Test
    void inputGrownIntoOwnSinkIsSeededAtItsHighWatermarkMinusOne() {
        rig.broker.end(S0, 3);
        rig.start();

        CausalNode node = rig.consumes(C, D, S0).start();

        assertThat(node.frontier(S0)).isEqualTo(2);
        assertThat(node.resumePositions()).containsExactly(Map.entry(S0, 3L));
    }

    @Test
    void grownInputIsSeededFromCarriedAncestry() {
        rig.start().onRecord(record(D, 4));
        rig.consumes(C).start();

        CausalNode node = rig.consumes(C, D).start();

        assertThat(node.frontier(D)).isEqualTo(4);
        assertThat(node.resumePositions()).containsExactly(Map.entry(D, 5L));
    }

    @Test
    void grownInputKnownAtOffsetZeroIsSeededThere() {
        rig.start().onRecord(record(C, 0, clock().advanceTo(E, 0)));

        CausalNode node = rig.consumes(C, D, E).start();

        assertThat(node.frontier(E)).isZero();
        assertThat(node.resumePositions()).containsExactly(Map.entry(E, 1L));
    }

    @Test
    void grownInputSeedIgnoresSequenceClaims() {
        rig.start().onRecord(record(C, 0, clock().advanceSeq(seq(E, U), 5)));

        CausalNode node = rig.consumes(C, D, E).start();

        assertThat(node.frontier(E)).isEqualTo(VectorClock.NOTHING);
    }

    @Test
    void unknownGrownInputIsNotSeeded() {
        rig.start();

        CausalNode node = rig.consumes(C, D, E).start();

        assertThat(node.state().frontiers()).doesNotContainKey(E);
        assertThat(node.resumePositions()).isEmpty();
        assertThat(coordinates(node.onRecord(record(E, 5)))).containsExactly(at(E, 5));
    }

    @Test
    void resumePositionsAreReadOnly() {
        CausalNode node = rig.start();

        assertThatThrownBy(() -> node.resumePositions().put(E, 1L)).isInstanceOf(UnsupportedOperationException.class);
    }
}
