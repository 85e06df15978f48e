package io.github.tobyjamesclements.parsley;

import java.util.List;

/**
 * Every simulator scenario with the family class that runs it (for replay commands), so the
 * anti-vacuity check and the planted-fault table cover the whole default suite.
 */
final class SimCatalogue {

    /** A scenario and the family class whose seeds run it. */
    record Entry(Class<?> family, Scenario scenario) {
    }

    private SimCatalogue() {
    }

    static List<Entry> all() {
        return List.of(
                new Entry(SharedInputRaceSimTests.class, SharedInputRaceSimTests.SHARED_INPUT),
                new Entry(TransitiveCustodySimTests.class, TransitiveCustodySimTests.E1_CHAIN),
                new Entry(EdgeProducerOrderingSimTests.class, EdgeProducerOrderingSimTests.EDGE_ORDER),
                new Entry(PlainConsumerObservationSimTests.class, PlainConsumerObservationSimTests.OBSERVED),
                new Entry(CrashRecoverySimTests.class, CrashRecoverySimTests.CRASH_CHAIN),
                new Entry(CrashRecoverySimTests.class, CrashRecoverySimTests.RESTARTING_WRITER),
                new Entry(CrashRecoverySimTests.class, CrashRecoverySimTests.SHARED_SINK_HOLDS),
                new Entry(QuietSinkSimTests.class, QuietSinkSimTests.QUIET_SINK),
                new Entry(MultiPartitionSinkSimTests.class, MultiPartitionSinkSimTests.MULTI_PARTITION),
                new Entry(LateJoinerSimTests.class, LateJoinerSimTests.AT_LATEST),
                new Entry(LateJoinerSimTests.class, LateJoinerSimTests.FROM_START),
                new Entry(DampedFeedbackCycleSimTests.class, DampedFeedbackCycleSimTests.CYCLES),
                new Entry(TruncationSimTests.class, TruncationSimTests.MID_HISTORY),
                new Entry(LogStartStabilitySimTests.class, LogStartStabilitySimTests.FULL_RETENTION),
                new Entry(ScopeChangeSimTests.class, ScopeChangeSimTests.SHRINK_GROW),
                new Entry(ScopeChangeSimTests.class, ScopeChangeSimTests.READDED_INPUT),
                new Entry(WideSoakSimTests.class, WideSoakSimTests.WIDE),
                new Entry(HighWatermarkSeedSimTests.class, HighWatermarkSeedSimTests.OPEN_SIBLING),
                new Entry(FormerSinkSimTests.class, FormerSinkSimTests.DROPPED_SINK),
                new Entry(UnknownPositionSimTests.class, UnknownPositionSimTests.FROM_OFFSET_ZERO),
                new Entry(HeldRecordRetentionSimTests.class, HeldRecordRetentionSimTests.RESPECTING_HOLDS),
                new Entry(HiddenTopicSimTests.class, HiddenTopicSimTests.UNSEEN_ORIGIN),
                new Entry(DeadLetterSimTests.class, DeadLetterSimTests.POISON_CHAIN),
                new Entry(DeadLetterSimTests.class, DeadLetterSimTests.HELD_POISON),
                new Entry(FanOutSimTests.class, FanOutSimTests.FAN_OUT),
                new Entry(WideRekeyingChainSimTests.class, WideRekeyingChainSimTests.WIDE_CHAIN),
                new Entry(RekeyingDiamondSimTests.class, RekeyingDiamondSimTests.DIAMOND),
                new Entry(ReadSimTests.class, ReadSimTests.READS));
    }
}
