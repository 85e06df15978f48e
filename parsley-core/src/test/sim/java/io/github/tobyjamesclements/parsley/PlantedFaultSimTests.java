package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every planted fault (protocol.md §14.3 V8, V9, the decisions of §16 reverted, and the protocol
 * rules a re-implementation could get wrong) runs over the default seed range of the scenario
 * meant to catch it; it must be caught by at least one seed, and by the oracle's verdict in at least
 * one (a fault met only by exceptions may be a harness that fails every seed). The fraction of seeds that catch it is
 * logged and appended to {@code target/sim/planted-faults.txt} ({@code docs/verification.md}
 * quotes it).
 */
class PlantedFaultSimTests {

    private static final Logger log = LoggerFactory.getLogger("parsley.sim");

    static Stream<Arguments> plants() {
        return Stream.of(
                plant(Faults.EAGER_DELIVERY, SharedInputRaceSimTests.class, SharedInputRaceSimTests.SHARED_INPUT),
                plant(Faults.COMMIT_STORE_ON_CRASH, CrashRecoverySimTests.class, CrashRecoverySimTests.CRASH_CHAIN),
                plant(Faults.DROP_POSITION_ADVANCES, QuietSinkSimTests.class, QuietSinkSimTests.QUIET_SINK),
                plant(Faults.FOLD_AT_DELIVERY, TransitiveCustodySimTests.class, TransitiveCustodySimTests.E1_CHAIN),
                plant(Faults.FILTER_UNCONSUMED, TransitiveCustodySimTests.class, TransitiveCustodySimTests.E1_CHAIN),
                plant(Faults.FORGET_SKIP_RUN, CrashRecoverySimTests.class, CrashRecoverySimTests.RESTARTING_WRITER),
                plant(Faults.DROP_REMEMBERED_POSITIONS, QuietSinkSimTests.class, QuietSinkSimTests.QUIET_SINK),
                plant(Faults.REPORT_BEFORE_FED, SharedInputRaceSimTests.class, SharedInputRaceSimTests.SHARED_INPUT),
                plant(Faults.STAMP_BEFORE_PARTITIONING, MultiPartitionSinkSimTests.class,
                        MultiPartitionSinkSimTests.MULTI_PARTITION),
                plant(Faults.SKIP_OWN_OUTPUTS_SEED, HighWatermarkSeedSimTests.class,
                        HighWatermarkSeedSimTests.OPEN_SIBLING),
                plant(Faults.LSO_SEED, HighWatermarkSeedSimTests.class, HighWatermarkSeedSimTests.OPEN_SIBLING),
                plant(Faults.TRUNCATE_ABOVE_BOUND, TruncationSimTests.class, TruncationSimTests.MID_HISTORY),
                plant(Faults.OUT_OF_FIFO, SharedInputRaceSimTests.class, SharedInputRaceSimTests.SHARED_INPUT),
                plant(Faults.DROP_FORMER_SINK_HEAL, FormerSinkSimTests.class, FormerSinkSimTests.DROPPED_SINK),
                plant(Faults.POSITION_ZERO_MEANS_NOTHING, UnknownPositionSimTests.class,
                        UnknownPositionSimTests.FROM_OFFSET_ZERO),
                plant(Faults.UNSEEN_TOPIC_TAKEN_FOR_DELETED, HiddenTopicSimTests.class,
                        HiddenTopicSimTests.UNSEEN_ORIGIN),
                plant(Faults.DEAD_LETTER_OUTSIDE_STEP, DeadLetterSimTests.class, DeadLetterSimTests.POISON_CHAIN),
                plant(Faults.DEAD_LETTER_DROPPED, DeadLetterSimTests.class, DeadLetterSimTests.POISON_CHAIN),
                plant(FanOutSimTests.SHARED_STORE, FanOutSimTests.class, FanOutSimTests.FAN_OUT),
                plant(Faults.DROP_CLAIMS_ON_DESTINATION_TOPIC, MultiPartitionSinkSimTests.class,
                        MultiPartitionSinkSimTests.MULTI_PARTITION),
                plant(Faults.DROP_OWN_SEQUENCE_CLAIMS, MultiPartitionSinkSimTests.class,
                        MultiPartitionSinkSimTests.MULTI_PARTITION),
                plant(Faults.SEED_ONLY_AFTER_TWO_SENDS, CrashRecoverySimTests.class,
                        CrashRecoverySimTests.CRASH_CHAIN),
                plant(Faults.SEQUENCE_CEILING_NEVER_PERSISTED, CrashRecoverySimTests.class,
                        CrashRecoverySimTests.RESTARTING_WRITER),
                plant(Faults.SEQUENCE_CEILING_OFF_BY_ONE, CrashRecoverySimTests.class,
                        CrashRecoverySimTests.RESTARTING_WRITER),
                plant(Faults.DERIVE_IGNORING_HOLD_QUEUE, FanOutSimTests.class, FanOutSimTests.FAN_OUT),
                plant(Faults.NO_SEED_FLOOR, ScopeChangeSimTests.class, ScopeChangeSimTests.READDED_INPUT),
                plant(Faults.REMOVED_INPUT_CARRIED_AT_FLOOR, ScopeChangeSimTests.class,
                        ScopeChangeSimTests.READDED_INPUT),
                plant(Faults.PERSIST_AFTER_COMMIT, CrashRecoverySimTests.class, CrashRecoverySimTests.CRASH_CHAIN),
                plant(Faults.STALE_STAMP_CLOCKS, TransitiveCustodySimTests.class, TransitiveCustodySimTests.E1_CHAIN),
                plant(Faults.ARRIVAL_PAST_HELD, SharedInputRaceSimTests.class, SharedInputRaceSimTests.SHARED_INPUT),
                plant(Faults.STALE_STAMP_FRONTIER, TransitiveCustodySimTests.class,
                        TransitiveCustodySimTests.E1_CHAIN),
                plant(Faults.HELD_KEEPS_READ_CLOCK, SharedInputRaceSimTests.class,
                        SharedInputRaceSimTests.SHARED_INPUT),
                plant(Faults.RESTORED_SENDER_CARRIED, CrashRecoverySimTests.class,
                        CrashRecoverySimTests.SHARED_SINK_HOLDS),
                plant(Faults.WHOLE_TOPIC_CLAIM_PASSED, MultiPartitionSinkSimTests.class,
                        MultiPartitionSinkSimTests.MULTI_PARTITION),
                plant(Faults.PROBE_BEFORE_ARRIVAL, MultiPartitionSinkSimTests.class,
                        MultiPartitionSinkSimTests.MULTI_PARTITION),
                plant(Faults.PROBE_IGNORES_QUEUE, MultiPartitionSinkSimTests.class,
                        MultiPartitionSinkSimTests.MULTI_PARTITION),
                plant(Faults.DROP_OWN_WHOLE_TOPIC_CLAIM, MultiPartitionSinkSimTests.class,
                        MultiPartitionSinkSimTests.MULTI_PARTITION),
                plant(Faults.DROP_CLAIM_UNDER_LOWER_WHOLE_TOPIC, RekeyingDiamondSimTests.class,
                        RekeyingDiamondSimTests.DIAMOND),
                plant(Faults.PROBES_NEVER_ANSWERED, RekeyingDiamondSimTests.class, RekeyingDiamondSimTests.DIAMOND),
                // earlier faults the whole-topic claims could bring back in a new form, over the re-keying families
                plant(Faults.DROP_CLAIMS_ON_DESTINATION_TOPIC, RekeyingDiamondSimTests.class,
                        RekeyingDiamondSimTests.DIAMOND),
                plant(Faults.DROP_OWN_SEQUENCE_CLAIMS, WideRekeyingChainSimTests.class,
                        WideRekeyingChainSimTests.WIDE_CHAIN),
                plant(Faults.FILTER_UNCONSUMED, RekeyingDiamondSimTests.class, RekeyingDiamondSimTests.DIAMOND),
                plant(Faults.STAMP_BEFORE_PARTITIONING, WideRekeyingChainSimTests.class,
                        WideRekeyingChainSimTests.WIDE_CHAIN),
                plant(Faults.DROP_POSITION_ADVANCES, RekeyingDiamondSimTests.class, RekeyingDiamondSimTests.DIAMOND),
                // the stamp's bound
                plant(Faults.COARSENING_DROPS_CLAIMS, BoundedStampSimTests.class, BoundedStampSimTests.BOUNDED_CHAIN),
                plant(Faults.COARSENING_ONE_BELOW, BoundedStampSimTests.class, BoundedStampSimTests.BOUNDED_CHAIN),
                // reads of committed state (issue 46)
                plant(Faults.READ_SKIPS_RESTRICTION, ReadSimTests.class, ReadSimTests.READS),
                plant(Faults.READ_DROPS_WHOLE_TOPIC_CLAIMS, ReadSimTests.class, ReadSimTests.READS),
                plant(Faults.SNAPSHOT_PUBLISHED_AT_PRE_COMMIT, ReadSimTests.class, ReadSimTests.READS),
                plant(Faults.READ_OF_STORE_VALUE, ReadSimTests.class, ReadSimTests.READS),
                plant(Faults.SWEEPS_NEVER_PUBLISHED, ReadSimTests.class, ReadSimTests.READS),
                plant(Faults.TOKEN_MERGE_KEEPS_MIN, ReadSimTests.class, ReadSimTests.READS),
                plant(Faults.TOKEN_MERGE_DROPS_KEYS, ReadSimTests.class, ReadSimTests.READS));
    }

    private static Arguments plant(Fault fault, Class<?> family, Scenario scenario) {
        return Arguments.of(fault.name(), fault, family, scenario);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("plants")
    void plantedFaultIsCaught(String name, Fault fault, Class<?> family, Scenario scenario) {
        long[] seeds = SimSeeds.faultSeeds();
        int caught = 0;
        int verdicts = 0;
        long firstCatch = -1;
        Map<String, Integer> kinds = new TreeMap<>();
        for (long seed : seeds) {
            try {
                scenario.run(seed, fault);
            } catch (SimViolation v) {
                caught++;
                verdicts++;
                kinds.merge(v.kind(), 1, Integer::sum);
                firstCatch = firstCatch < 0 ? seed : firstCatch;
            } catch (RuntimeException | AssertionError e) {
                caught++;
                kinds.merge(e.getClass().getSimpleName(), 1, Integer::sum);
                firstCatch = firstCatch < 0 ? seed : firstCatch;
            }
        }
        String line = String.format(java.util.Locale.ROOT, "%s | %s | %d/%d (%.1f%%) | %s | first seed %d", name,
                family.getSimpleName() + ": " + scenario.name(), caught, seeds.length,
                100.0 * caught / seeds.length, kinds, firstCatch);
        log.info("planted fault: {}", line);
        record(line);
        assertThat(caught).as("seeds of %s that catch the planted fault '%s'", family.getSimpleName(), name)
                .isPositive();
        // a fault met only by exceptions may be a broken harness failing every seed: one seed at least must
        // end in the oracle's verdict
        assertThat(verdicts).as("seeds of %s where the oracle, not an exception, catches '%s' (%s)",
                family.getSimpleName(), name, kinds).isPositive();
    }

    private static void record(String line) {
        try {
            Path out = Path.of("target", "sim", "planted-faults.txt");
            Files.createDirectories(out.getParent());
            Files.writeString(out, line + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
