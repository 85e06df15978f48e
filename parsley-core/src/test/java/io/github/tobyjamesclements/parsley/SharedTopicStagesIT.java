package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.ThreadMetadata;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fan-out on a broker: two stages of one application consume one topic. The summer folds both
 * topics of the workload and holds the second's records behind an open transaction on the first;
 * the auditor folds the shared topic alone. The summer crashes mid-release, which fails the task
 * the two stages share and aborts both stages' uncommitted steps; the instance restarts on its
 * state directory; a second instance joins and the first leaves while records are held. Each
 * stage's committed output shows every record it consumes delivered once, in causal order, with
 * exact per-key sums.
 */
class SharedTopicStagesIT {

    private static final int PARTITIONS = 2;
    /** Two keys per partition. */
    private static final List<String> KEYS = List.of("k0", "k3", "k1", "k4");

    @TempDir
    Path firstStateDir;

    @TempDir
    Path secondStateDir;

    @Test
    void twoStagesOnOneTopicKeepTheirOrderThroughACrashAndARebalance() throws Exception {
        String x = TestKafka.unique("fan-x");
        String y = TestKafka.unique("fan-y");
        String summed = TestKafka.unique("fan-summed");
        String audited = TestKafka.unique("fan-audited");
        for (String t : List.of(x, y, summed, audited)) {
            TestKafka.createTopic(t, PARTITIONS);
        }
        Topic<String, String> tx = Topic.of(x, Codec.utf8(), Codec.utf8());
        Topic<String, String> ty = Topic.of(y, Codec.utf8(), Codec.utf8());
        Topic<String, String> ts = Topic.of(summed, Codec.utf8(), Codec.utf8());
        Topic<String, String> ta = Topic.of(audited, Codec.utf8(), Codec.utf8());
        AtomicReference<String> crashAt = new AtomicReference<>();
        AtomicBoolean crashed = new AtomicBoolean();
        Stage summer = Stage.named("summer").state(Codec.int64(), () -> 0L)
                .on(tx, (Long s, Message<String, String> m) -> {
                    if (m.value().equals(crashAt.get()) && crashed.compareAndSet(false, true)) {
                        throw new IllegalStateException("planned crash at value " + m.value());
                    }
                    return CausalWorkload.sum(s, m, ts);
                })
                .on(ty, (Long s, Message<String, String> m) -> CausalWorkload.sum(s, m, ts))
                .into(ts)
                .build();
        Stage auditor = Stage.named("auditor").state(Codec.int64(), () -> 0L)
                .on(tx, (Long s, Message<String, String> m) -> CausalWorkload.sum(s, m, ta))
                .into(ta)
                .build();
        Parsley app = Parsley.named(TestKafka.unique("fan"), summer, auditor);

        try (CausalWorkload load = new CausalWorkload(x, y, PARTITIONS)) {
            crashMidRelease(app, load, x, y, crashAt, summed, audited);
            assertThat(crashed).isTrue();
            load.rounds(1, KEYS);
            rebalanceWhileHolding(app, load, x, y, summed, audited);
            load.assertDelivered(TestKafka.readAll(summed));
            load.assertDelivered(TestKafka.readAll(audited), Set.of(x));
        }
    }

    /** The summer throws while releasing held records: the shared task fails, and the instance stops. */
    private void crashMidRelease(Parsley app, CausalWorkload load, String x, String y,
            AtomicReference<String> crashAt, String summed, String audited) {
        try (CausalStreams first = app.streams(TestKafka.streamsProps(app.applicationId(), firstStateDir))) {
            AtomicReference<Throwable> failure = TestKafka.captureFailure(first);
            first.start();
            TestKafka.awaitRunning(first);
            assertThat(activeTasks(first)).as("tasks of the one sub-topology both stages share")
                    .isEqualTo(PARTITIONS);
            load.rounds(2, KEYS);
            awaitOutputs(load, x, summed, audited);

            holdOnEveryPartition(load, x, y);
            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> first.explainHolds().size() == PARTITIONS);
            crashAt.set(Long.toString(load.lastValue(x, "k3")));
            load.commitHeld();

            Throwable crash = TestKafka.awaitFailure(first, failure);
            assertThat(TestKafka.causeOf(crash, IllegalStateException.class)).get()
                    .extracting(Throwable::getMessage).asString().startsWith("planned crash");
        }
    }

    /** Restarts on the kept state; a second instance joins and the first leaves while records are held. */
    private void rebalanceWhileHolding(Parsley app, CausalWorkload load, String x, String y, String summed,
            String audited) {
        try (CausalStreams first = app.streams(TestKafka.streamsProps(app.applicationId(), firstStateDir));
                CausalStreams second = app.streams(TestKafka.streamsProps(app.applicationId(), secondStateDir))) {
            first.start();
            TestKafka.awaitRunning(first);
            awaitOutputs(load, x, summed, audited);

            holdOnEveryPartition(load, x, y);
            second.start();
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .until(() -> activeTasks(first) == 1 && activeTasks(second) == 1);
            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> first.explainHolds().size() + second.explainHolds().size() == PARTITIONS);
            load.commitHeld();
            load.rounds(1, KEYS);
            awaitOutputs(load, x, summed, audited);

            holdOnEveryPartition(load, x, y);
            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> first.explainHolds().size() + second.explainHolds().size() == PARTITIONS);
            first.close();
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .until(() -> activeTasks(second) == PARTITIONS);
            load.commitHeld();
            load.rounds(1, KEYS);
            awaitOutputs(load, x, summed, audited);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> second.explainHolds().isEmpty());
        }
    }

    private static void awaitOutputs(CausalWorkload load, String x, String summed, String audited) {
        TestKafka.readCommitted(summed, load.sentCount(), Duration.ofSeconds(45));
        TestKafka.readCommitted(audited, load.sentCount(x), Duration.ofSeconds(45));
    }

    /** Opens a held transaction on the shared topic and sends records on the summer's other topic that claim it. */
    private static void holdOnEveryPartition(CausalWorkload load, String x, String y) {
        load.beginHeld();
        KEYS.forEach(k -> load.sendHeld(x, k));
        KEYS.forEach(k -> load.send(y, k));
    }

    private static long activeTasks(CausalStreams streams) {
        return streams.metadataForLocalThreads().stream().map(ThreadMetadata::activeTasks).mapToLong(s -> s.size())
                .sum();
    }
}
