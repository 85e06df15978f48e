package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.KafkaStreams;
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

    /**
     * Stages of different widths on one topic share one sub-topology as wide as the wider stage:
     * the narrow stage has no partition in the tasks beyond its width and must stay idle there, in
     * particular never tick (its tick topic has its own width, F17).
     */
    @Test
    void aNarrowerStageIsIdleInTheTasksBeyondItsWidthAndTicksOnlyInItsOwn() throws Exception {
        String x = TestKafka.unique("fan-shared");
        String z = TestKafka.unique("fan-wide");
        String narrowOut = TestKafka.unique("fan-narrow-out");
        String wideOut = TestKafka.unique("fan-wide-out");
        TestKafka.createTopic(x, 2);
        TestKafka.createTopic(z, 4);
        TestKafka.createTopic(narrowOut, 2);
        TestKafka.createTopic(wideOut, 4);
        Topic<String, String> tx = Topic.of(x, Codec.utf8(), Codec.utf8());
        Topic<String, String> tz = Topic.of(z, Codec.utf8(), Codec.utf8());
        Topic<String, String> tn = Topic.of(narrowOut, Codec.utf8(), Codec.utf8());
        Topic<String, String> tw = Topic.of(wideOut, Codec.utf8(), Codec.utf8());
        Stage narrow = Stage.named("narrow")
                .on(tx, m -> List.of(tn.send(m.key(), "x|" + m.value())))
                .ticks(Duration.ofMillis(100), t -> List.of(tn.send("tick", "tick")))
                .into(tn)
                .build();
        Stage wide = Stage.named("wide")
                .on(tx, m -> List.of(tw.send(m.key(), "x|" + m.value())))
                .on(tz, m -> List.of(tw.send(m.key(), "z|" + m.value())))
                .into(tw)
                .build();
        Parsley app = Parsley.named(TestKafka.unique("fan-width"), narrow, wide);
        TestKafka.createTopic(app.applicationId() + "-narrow-ticks", 2);

        try (CausalStreams streams = app.streams(TestKafka.streamsProps(app.applicationId(), firstStateDir));
                KafkaProducer<String, String> producer = TestKafka.producer()) {
            AtomicReference<Throwable> failure = TestKafka.captureFailure(streams);
            streams.start();
            TestKafka.awaitRunning(streams);
            assertThat(activeTasks(streams)).as("one sub-topology as wide as its widest topic").isEqualTo(4);
            for (int i = 0; i < 8; i++) {
                producer.send(new ProducerRecord<>(x, "k" + i, Integer.toString(i))).get();
                producer.send(new ProducerRecord<>(z, "k" + i, Integer.toString(i))).get();
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> values(narrowOut).stream()
                    .filter("tick"::equals).count() >= 8 && values(narrowOut).size() >= 16);
            TestKafka.readCommitted(wideOut, 16, Duration.ofSeconds(30));

            assertThat(failure.get()).as("no task failed, ticks included").isNull();
            assertThat(streams.state()).isEqualTo(KafkaStreams.State.RUNNING);
            assertThat(values(narrowOut).stream().filter(v -> v.startsWith("x|")))
                    .containsExactlyInAnyOrderElementsOf(IntStream.range(0, 8).mapToObj(i -> "x|" + i).toList());
            assertThat(values(wideOut)).hasSize(16);
        }
    }

    private static List<String> values(String topic) {
        return TestKafka.readAll(topic).stream().map(ConsumerRecord::value).toList();
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
