package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plain clients order their writes for a downstream stage with a {@link CausalClock}: the cause is
 * made slow to become visible (its transaction is held open) while the effect is visible at once,
 * and the stage must still deliver the cause first.
 */
class CausalClockIT {

    @TempDir
    Path stateDir;

    @Test
    void producerOrdersItsWritesAcrossTwoTopicsForADownstreamStage() throws Exception {
        Fixture f = new Fixture("clock-produced");
        try (CausalStreams streams = f.start(stateDir);
                KafkaProducer<String, String> slow = TestKafka.transactionalProducer();
                KafkaProducer<String, String> fast = TestKafka.producer()) {
            CausalClock clock = new CausalClock(TestKafka.admin());
            slow.beginTransaction();
            clock.recordProduced(slow.send(new ProducerRecord<>(f.x, "k", "A")).get());
            ProducerRecord<String, String> b = new ProducerRecord<>(f.y, "k", "B");
            clock.stamp(b.headers());
            fast.send(b).get();

            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> streams.explainHolds().size() == 1);
            assertThat(streams.explainHolds().get(0).topic()).isEqualTo(f.y);
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> TestKafka.vcMetric(streams, "records-held").orElse(0) == 1.0);
            assertThat(TestKafka.readAllBytes(f.out)).isEmpty();

            slow.commitTransaction();

            assertThat(TestKafka.readCommitted(f.out, 2, Duration.ofSeconds(30)))
                    .extracting(ConsumerRecord::value).containsExactly("x:A", "y:B");
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> TestKafka.vcMetric(streams, "records-held").orElse(-1) == 0.0);
            assertThat(TestKafka.vcMetric(streams, "records-delivered-total")).hasValue(2.0);
        }
    }

    @Test
    void observedRecordIsACauseOfTheObserversLaterWrites() throws Exception {
        Fixture f = new Fixture("clock-observed");
        try (CausalStreams streams = f.start(stateDir);
                KafkaProducer<String, String> slow = TestKafka.transactionalProducer();
                KafkaProducer<String, String> relay = TestKafka.producer();
                KafkaConsumer<String, String> peek = new KafkaConsumer<>(Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrap(),
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted"),
                        new StringDeserializer(), new StringDeserializer())) {
            slow.beginTransaction();
            slow.send(new ProducerRecord<>(f.x, "k", "A")).get();

            peek.assign(List.of(new TopicPartition(f.x, 0)));
            peek.seekToBeginning(List.of(new TopicPartition(f.x, 0)));
            CausalClock clock = new CausalClock(TestKafka.admin());
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                peek.poll(Duration.ofMillis(100)).forEach(clock::observe);
                return peek.position(new TopicPartition(f.x, 0)) > 0;
            });
            ProducerRecord<String, String> b = new ProducerRecord<>(f.y, "k", "B");
            clock.stamp(b.headers());
            relay.send(b).get();

            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> streams.explainHolds().size() == 1);
            assertThat(TestKafka.readAllBytes(f.out)).isEmpty();
            slow.commitTransaction();

            assertThat(TestKafka.readCommitted(f.out, 2, Duration.ofSeconds(30)))
                    .extracting(ConsumerRecord::value).containsExactly("x:A", "y:B");
        }
    }

    /** A stage relaying two one-partition topics into one log. */
    private static final class Fixture {
        final String x = TestKafka.unique("clock-x");
        final String y = TestKafka.unique("clock-y");
        final String out = TestKafka.unique("clock-out");
        final Parsley app;

        Fixture(String name) {
            for (String t : List.of(x, y, out)) {
                TestKafka.createTopic(t, 1);
            }
            Topic<String, String> tx = Topic.of(x, Codec.utf8(), Codec.utf8());
            Topic<String, String> ty = Topic.of(y, Codec.utf8(), Codec.utf8());
            Topic<String, String> log = Topic.of(out, Codec.utf8(), Codec.utf8());
            app = Parsley.named(TestKafka.unique(name), Stage.named("relay")
                    .on(tx, m -> List.of(log.send(m.key(), "x:" + m.value())))
                    .on(ty, m -> List.of(log.send(m.key(), "y:" + m.value())))
                    .into(log)
                    .build());
        }

        CausalStreams start(Path stateDir) {
            CausalStreams streams = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir));
            streams.start();
            TestKafka.awaitRunning(streams);
            return streams;
        }
    }
}
