package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retention against held records (protocol.md §1.5 item 5, §8.2). C consumes t1, t3 and t4; a
 * sibling transaction held open on t4 hides P's t4 records from C, so the t1 records C fetched are
 * held (P's t1 records claim its earlier t4 records).
 * The relay B carries claims on t1 only in its advertised clock; after A falls silent, retention
 * runs, B sweeps to the log-start bound, and an unstamped writer makes B emit again.
 *
 * <p>When retention respects held records (the simulator's default: a subscriber's lag is what
 * it has not delivered), the world drains. When retention follows committed consumer positions
 * only (what Kafka Streams reports as lag, since it commits past held records, §13.1), the
 * log-start bound is no longer stable: B's sweep drops claims on records C still holds, and C
 * delivers B's later record first. The probe demonstrates that finding.
 */
class HeldRecordRetentionSimTests {

    private static final Logger log = LoggerFactory.getLogger("parsley.sim");

    static final Scenario RESPECTING_HOLDS = Scenario.of("retention respecting held records",
            (seed, fault) -> world(seed, fault, false));

    static SimWorld world(long seed, Fault fault, boolean pastHolds) {
        SimWorld w = SimWorld.create(seed, fault);
        if (pastHolds) {
            w.retentionPastHolds();
        }
        SplittableRandom shape = w.shapes();
        w.topic("t1", 1).topic("t2", 1).topic("t3", 1).topic("t4", 1);
        boolean[] swept = {false};
        SimProducer s = w.producer("S").writes("t4").records(1).transactions(1, 0).commitWhen(x -> swept[0]).build();
        SimProducer p = w.producer("P").writes("t4", "t1").records(12 + shape.nextInt(10))
                .transactions(1 + shape.nextInt(2), 100).startWhen(x -> s.transactionOpen() || swept[0]).build();
        SimNode a = w.node("A").consumes("t1").route("t2", 1000).crashes(shape.nextInt(2)).build();
        SimNode b = w.node("B").consumes("t2").route("t3", 300 + shape.nextInt(300)).crashes(shape.nextInt(2))
                .build();
        w.node("C").consumes("t1", "t3", "t4").crashes(shape.nextInt(2)).build();
        w.when("retain, then sweep B, once A fell silent", x -> p.done() && a.idle() && b.up() && !swept[0], () -> {
            swept[0] = true;
            w.retainEverything();
            b.truncateNow();
        });
        w.producer("Q").writes("t2").records(3 + shape.nextInt(5)).plain().unstamped().startWhen(x -> swept[0])
                .build();
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void retentionThatRespectsHeldRecordsKeepsTheLogStartBoundStable(long seed) {
        SimSeeds.run(HeldRecordRetentionSimTests.class, seed, RESPECTING_HOLDS);
    }

    @Test
    void retentionPastHeldRecordsMakesTheLogStartBoundUnsound() {
        int seeds = 500;
        int violations = 0;
        long first = -1;
        for (long seed = 0; seed < seeds; seed++) {
            try {
                world(seed, Fault.NONE, true).runToDrain();
            } catch (SimViolation v) {
                assertThat(v.kind()).as("seed=%d: %s", seed, v.getMessage()).isEqualTo("CAUSAL VIOLATION");
                violations++;
                first = first < 0 ? seed : first;
            }
        }
        log.info("retention past held records: {}/{} seeds deliver out of causal order (first seed {})", violations,
                seeds, first);
        assertThat(violations).as("seeds where truncation to a log start past held records is observed").isPositive();
    }
}
