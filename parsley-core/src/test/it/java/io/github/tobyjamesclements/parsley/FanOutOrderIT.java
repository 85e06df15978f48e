package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * protocol.md example E2 and §9.4 on a real broker: an emitter stage sends each input first to
 * topic c2, then to topic c3, so the only causal order of a collector consuming both is the
 * emitter's send order, carried by sequence claims within an incarnation and by end-offset seeds
 * across a restart. Every c3 record carries an older timestamp than its c2 predecessor, so Kafka
 * Streams' timestamp choice offers the collector the c3 record first. The emitter crashes mid-run
 * (its aborted sends become markers and aborted records the collector must bridge) and restarts.
 */
class FanOutOrderIT {

    private static final int PARTITIONS = 2;
    private static final List<String> KEYS = List.of("k0", "k1", "k2", "k3", "k4", "k5");

    @TempDir
    Path emitterDir;

    @TempDir
    Path collectorDir;

    @Test
    void collectorDeliversTheEmittersSendsInSendOrderAcrossTheEmittersRestart() throws Exception {
        String in = TestKafka.unique("fanout-in");
        String c2 = TestKafka.unique("fanout-c2");
        String c3 = TestKafka.unique("fanout-c3");
        String out = TestKafka.unique("fanout-out");
        for (String t : List.of(in, c2, c3, out)) {
            TestKafka.createTopic(t, PARTITIONS);
        }
        Topic<String, String> t2 = Topic.of(c2, Codec.utf8(), Codec.utf8());
        Topic<String, String> t3 = Topic.of(c3, Codec.utf8(), Codec.utf8());
        Topic<String, String> log = Topic.of(out, Codec.utf8(), Codec.utf8());
        AtomicReference<String> crashAt = new AtomicReference<>();
        AtomicBoolean crashed = new AtomicBoolean();
        Stage emitter = Stage.named("emitter")
                .on(Topic.of(in, Codec.utf8(), Codec.utf8()), m -> {
                    if (m.value().equals(crashAt.get()) && crashed.compareAndSet(false, true)) {
                        throw new IllegalStateException("planned crash at " + m.value());
                    }
                    return List.of(t2.send(m.key(), m.value()), t3.send(m.key(), m.value(), m.timestamp() - 60_000));
                })
                .into(t2, t3)
                .build();
        Stage collector = Stage.named("collector")
                .on(t2, m -> List.of(log.send(m.key(), "c2|" + m.value())))
                .on(t3, m -> List.of(log.send(m.key(), "c3|" + m.value())))
                .into(log)
                .build();
        Parsley emitting = Parsley.named(TestKafka.unique("fanout-emitter"), emitter);
        Parsley collecting = Parsley.named(TestKafka.unique("fanout-collector"), collector);
        Map<Integer, List<String>> expected = new TreeMap<>();

        try (CausalStreams collectorStreams = collecting.streams(
                        TestKafka.streamsProps(collecting.applicationId(), collectorDir));
                KafkaProducer<String, String> producer = TestKafka.producer()) {
            collectorStreams.start();
            try (CausalStreams first = emitting.streams(TestKafka.streamsProps(emitting.applicationId(), emitterDir))) {
                AtomicReference<Throwable> failure = TestKafka.captureFailure(first);
                first.start();
                TestKafka.awaitRunning(first);
                TestKafka.awaitRunning(collectorStreams);
                produce(producer, in, 0, 4, expected);
                crashAt.set("v4-k3");
                produce(producer, in, 4, 6, expected);
                TestKafka.awaitFailure(first, failure);
            }
            assertThat(crashed).isTrue();
            produce(producer, in, 6, 9, expected);
            try (CausalStreams second = emitting.streams(
                    TestKafka.streamsProps(emitting.applicationId(), emitterDir))) {
                second.start();
                int total = expected.values().stream().mapToInt(List::size).sum();
                TestKafka.readCommitted(out, total, Duration.ofSeconds(45));
                Awaitility.await().atMost(Duration.ofSeconds(10))
                        .until(() -> collectorStreams.explainHolds().isEmpty());
            }
            Map<Integer, List<String>> delivered = new TreeMap<>();
            for (ConsumerRecord<String, String> r : TestKafka.readAll(out)) {
                delivered.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(r.value());
            }
            assertThat(delivered).as("collector delivery log per partition").isEqualTo(expected);
        }
    }

    /** Sends rounds {@code [from, to)}: per round one input per key, recording the expected fan-out. */
    private static void produce(KafkaProducer<String, String> producer, String in, int from, int to,
            Map<Integer, List<String>> expected) throws Exception {
        for (int round = from; round < to; round++) {
            for (String k : KEYS) {
                int p = StampingDoor.partition(k.getBytes(StandardCharsets.UTF_8), PARTITIONS);
                String v = "v" + round + "-" + k;
                producer.send(new ProducerRecord<>(in, p, k, v)).get();
                expected.computeIfAbsent(p, x -> new ArrayList<>()).addAll(List.of("c2|" + v, "c3|" + v));
            }
        }
    }
}
