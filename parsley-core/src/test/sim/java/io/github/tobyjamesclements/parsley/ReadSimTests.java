package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads of stateful stages' committed state with causal tokens (protocol.md §17, issue 46). The
 * world is the orders sample in small: a producer writes orders, a second observes them and writes
 * payments (its stamps claim the orders it saw); stage {@code balances} (one node per partition)
 * folds orders and payments and re-keys notes over every partition of {@code notes}; stage
 * {@code audit} (one node per partition) folds notes and writes a ledger. Both stages are readable:
 * their commits take two steps (the pre-commit persist prepares the snapshot, the commit publishes
 * it), they crash idle, mid-step and between the two, and they truncate; half the audit nodes lag.
 * Half the seeds bound stamps to one byte, so every sequence claim is coarsened to a whole-topic
 * claim (§6.7); half run retention. Client sessions take tokens from records they see and from
 * their reads' answers, and read through the read gate of each node's last commit: one also takes
 * its writes' tokens and reads every node, the other follows notes across partitions and reads the
 * audit nodes (a note's whole-topic claim names its sender's notes on the other partitions). On
 * half the seeds a third audit stage joins notes' first partition late, from the log end, as a
 * stage added to a running application would after retention.
 *
 * <p>Every answered read is judged by the oracle, never by a clock: its value (the set of records
 * the node's committed fold reflects) holds every committed record of the token's true past on the
 * channels the node consumes; a session's later read of a node reflects everything its earlier one
 * did, across restarts; a value read is committed and never rolled back. Once the world drains,
 * every read not answered is retried with its token and must be answered.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReadSimTests {

    private static final Logger log = LoggerFactory.getLogger("parsley.sim");

    static final Scenario READS = Scenario.of("reads of committed state", ReadSimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        int partitions = 1 + shape.nextInt(3);
        int notes = 2 + shape.nextInt(3);
        w.topic("orders", partitions).topic("payments", partitions).topic("notes", notes).topic("ledger", 1);
        if (shape.nextBoolean()) {
            // every stamp with a sequence claim is coarsened: whole-topic claims everywhere (§6.7)
            w.maxStampBytes(1);
        }
        if (shape.nextBoolean()) {
            w.retention(2 + shape.nextInt(8));
        }
        SimProducer orders = w.producer("O").writes("orders").records(8 + shape.nextInt(12))
                .transactions(1 + shape.nextInt(3), 150).build();
        SimProducer payments = w.producer("Y").writes("payments").observes("orders").records(6 + shape.nextInt(10))
                .transactions(1 + shape.nextInt(2), 100).build();
        List<SimNode> readable = new ArrayList<>();
        List<SimNode> audits = new ArrayList<>();
        for (int i = 0; i < partitions; i++) {
            readable.add(w.node("balances-" + i).consumes("orders", i).consumes("payments", i)
                    .route("notes", 600, true).slow(shape.nextBoolean() ? "orders" : "payments")
                    .crashes(1 + shape.nextInt(4)).truncations(shape.nextInt(3)).readable().build());
        }
        for (int i = 0; i < notes; i++) {
            SimNode.Builder audit = w.node("audit-" + i).consumes("notes", i).route("ledger", 500)
                    .crashes(shape.nextInt(4)).truncations(shape.nextInt(3)).readable();
            if (shape.nextBoolean()) {
                // lags on its partition: a token's whole-topic claim on notes names records it has not delivered
                audit.slow("notes");
            }
            audits.add(audit.build());
        }
        if (shape.nextBoolean()) {
            // a stage added later, reading notes from the log end: it never delivers the records
            // before its start, so a token must name them by offset (its frontier starts past them)
            int after = 2 + shape.nextInt(7);
            audits.add(w.node("late-audit").consumes("notes", 0).startAt(SimNode.StartAt.LATEST)
                    .startWhen(x -> orders.sent() >= after).crashes(shape.nextInt(2)).readable().build());
        }
        readable.addAll(audits);
        w.reader("client-0").reads(readable).writesThrough(orders, payments).sees("payments", "notes", "ledger")
                .actions(20 + shape.nextInt(25)).build();
        // follows notes across partitions: a note's whole-topic claim names its sender's notes elsewhere
        w.reader("client-1").reads(audits).sees("notes").actions(20 + shape.nextInt(25)).build();
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @Order(1)
    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void readsWithATokenReflectItsPastAreMonotonicAndNeverRolledBack(long seed) {
        SimSeeds.run(ReadSimTests.class, seed, READS);
    }

    @Order(2)
    @Test
    void readsWaitAnswerAfterRestartsAndMeetWholeTopicAndForeignClaims() {
        String replayed = System.getProperty("parsley.sim.seed");
        Assumptions.assumeTrue(replayed == null || replayed.isBlank(), "one seed replayed");
        SimStats s = SimSeeds.exercised(READS.name());
        if (s == null) {
            s = new SimStats();
            for (long seed = 0; seed < 25; seed++) {
                s.addAll(SimSeeds.run(ReadSimTests.class, seed, READS));
            }
        }
        log.info("{}: {}", READS.name(), s);
        for (SimStats.Counter c : List.of(SimStats.Counter.READS_ANSWERED, SimStats.Counter.READS_UNMET,
                SimStats.Counter.READS_NO_OWNER, SimStats.Counter.READS_RETRIED_AT_DRAIN,
                SimStats.Counter.READS_COVERING_PAST, SimStats.Counter.READ_RECORDS_CHECKED,
                SimStats.Counter.READS_AFTER_RESTART, SimStats.Counter.READS_IN_COMMIT_WINDOW,
                SimStats.Counter.READS_WITH_WHOLE_TOPIC_CLAIMS, SimStats.Counter.READS_CLAIMING_UNCONSUMED,
                SimStats.Counter.READS_ACROSS_NODES, SimStats.Counter.READS_DECIDED_BY_END_OFFSETS,
                SimStats.Counter.CRASHES_BEFORE_COMMIT,
                SimStats.Counter.CRASHES_MID_STEP, SimStats.Counter.RETENTION_ADVANCES,
                SimStats.Counter.TRUNCATIONS)) {
            assertThat(s.get(c)).as("counter %s", c).isPositive();
        }
    }
}
