package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plain clients configured only with {@code interceptor.classes} order their writes for a downstream
 * stage. Each test makes the cause slow to become visible (a transaction held open, directly or
 * upstream of it) while the effect is visible at once; without the interceptors the effect would be
 * delivered first.
 */
class CausalInterceptorIT {

    @TempDir
    Path stateDir;

    @Test
    void acknowledgedOrderIsACauseOfThePaymentSentAfterIt() throws Exception {
        Fixture f = new Fixture("icpt-produced");
        String clock = TestKafka.unique("clock");
        try (CausalStreams streams = f.start(stateDir);
                KafkaProducer<String, String> orders = producer(clock, true);
                KafkaProducer<String, String> payments = producer(clock, false)) {
            orders.beginTransaction();
            orders.send(new ProducerRecord<>(f.orders, "k", "order")).get();
            payments.send(new ProducerRecord<>(f.payments, "k", "payment")).get();

            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> streams.explainHolds().size() == 1);
            assertThat(streams.explainHolds().get(0).topic()).isEqualTo(f.payments);
            assertThat(TestKafka.readAllBytes(f.out)).isEmpty();

            orders.commitTransaction();

            assertThat(TestKafka.readCommitted(f.out, 2, Duration.ofSeconds(30)))
                    .extracting(ConsumerRecord::value).containsExactly("order", "payment");
        }
    }

    @Test
    void consumedOrderIsACauseOfTheServicesLaterSend() throws Exception {
        Fixture f = new Fixture("icpt-consumed");
        String writer = TestKafka.unique("writer");
        String service = TestKafka.unique("service");
        try (CausalStreams streams = f.start(stateDir);
                KafkaProducer<String, String> gate = producer(writer, true);
                KafkaProducer<String, String> orders = producer(writer, false);
                KafkaProducer<String, String> unstamped = TestKafka.producer();
                KafkaConsumer<String, String> in = consumer(service);
                KafkaProducer<String, String> out = producer(service, false)) {
            // orders@0 claims gate@0, whose transaction stays open: the stage holds the orders channel
            // at its head, so orders@1 (committed, consumed by the service) is not delivered yet. The
            // order itself is unstamped, so the payment's only claim is the one its consumption made.
            gate.beginTransaction();
            gate.send(new ProducerRecord<>(f.gate, "k", "gate")).get();
            orders.send(new ProducerRecord<>(f.orders, "k", "blocker")).get();
            unstamped.send(new ProducerRecord<>(f.orders, "k", "order")).get();

            TopicPartition tp = new TopicPartition(f.orders, 0);
            in.assign(List.of(tp));
            in.seek(tp, 1);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !in.poll(Duration.ofMillis(100)).isEmpty());
            out.send(new ProducerRecord<>(f.payments, "k", "payment")).get();

            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> streams.explainHolds().stream()
                    .anyMatch(h -> h.topic().equals(f.payments)));
            HeldRecord payment = streams.explainHolds().stream().filter(h -> h.topic().equals(f.payments))
                    .findFirst().orElseThrow();
            assertThat(payment.unmetClaims()).extracting(HeldRecord.UnmetClaim::topic).containsOnly(f.orders);
            assertThat(TestKafka.readAllBytes(f.out)).isEmpty();

            gate.commitTransaction();

            assertThat(TestKafka.readCommitted(f.out, 4, Duration.ofSeconds(30)))
                    .extracting(ConsumerRecord::value).containsExactly("gate", "blocker", "order", "payment");
        }
    }

    @Test
    void aCorruptOutboundClockFailsTheSendInsteadOfLeavingUnstamped() {
        String topic = TestKafka.unique("icpt-refused");
        TestKafka.createTopic(topic, 1);
        try (KafkaProducer<String, String> p = producer(TestKafka.unique("refuse"), false)) {
            ProducerRecord<String, String> corrupt = new ProducerRecord<>(topic, "k", "v");
            corrupt.headers().add(CausalHeaders.CLOCK, new byte[] {0x02, 0, 1});

            assertThatThrownBy(() -> p.send(corrupt).get()).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(InvalidTopicException.class).hasMessageContaining("parsley refused");
        }
        assertThat(TestKafka.readAllBytes(topic)).isEmpty();
    }

    @Test
    void aResentStageEmissionKeepsItsClockAndLosesItsSenderTag() throws Exception {
        String topic = TestKafka.unique("icpt-resent");
        TestKafka.createTopic(topic, 1);
        UUID orders = UUID.randomUUID();
        try (KafkaProducer<String, String> p = producer(TestKafka.unique("resend"), false)) {
            ProducerRecord<String, String> copied = new ProducerRecord<>(topic, "k", "v");
            CausalHeaders.write(copied.headers(), new SendStamp(
                    new VectorClock().advanceTo(new Channel(orders, 3), 41), Senders.of("copied-app", "stage", 2), 7));
            p.send(copied).get();
        }
        ConsumerRecord<byte[], byte[]> sent = TestKafka.readAllBytes(topic).get(0);
        CausalHeaders.Read read = CausalHeaders.read(sent.headers(), "resent");
        assertThat(read.sender()).isNull();
        assertThat(read.clock().offset(new Channel(orders, 3))).isEqualTo(41);
    }

    private static KafkaProducer<String, String> producer(String clock, boolean transactional) {
        Map<String, Object> c = new HashMap<>();
        c.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrap());
        c.put(ProducerConfig.ACKS_CONFIG, "all");
        c.put(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, CausalProducerInterceptor.class.getName());
        c.put(CausalProducerInterceptor.CLOCK_NAME_CONFIG, clock);
        c.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000);
        if (transactional) {
            c.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, TestKafka.unique("tx"));
        }
        KafkaProducer<String, String> p = new KafkaProducer<>(c, new StringSerializer(), new StringSerializer());
        if (transactional) {
            p.initTransactions();
        }
        return p;
    }

    private static KafkaConsumer<String, String> consumer(String clock) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrap(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG, CausalConsumerInterceptor.class.getName(),
                CausalProducerInterceptor.CLOCK_NAME_CONFIG, clock), new StringDeserializer(), new StringDeserializer());
    }

    /** A stage relaying gate, orders and payments (one partition each) into one log. */
    private static final class Fixture {
        final String gate = TestKafka.unique("icpt-gate");
        final String orders = TestKafka.unique("icpt-orders");
        final String payments = TestKafka.unique("icpt-payments");
        final String out = TestKafka.unique("icpt-out");
        final Parsley app;

        Fixture(String name) {
            for (String t : List.of(gate, orders, payments, out)) {
                TestKafka.createTopic(t, 1);
            }
            Topic<String, String> log = Topic.of(out, Codec.utf8(), Codec.utf8());
            Stage.Builder relay = Stage.named("relay");
            for (String t : List.of(gate, orders, payments)) {
                relay = relay.on(Topic.of(t, Codec.utf8(), Codec.utf8()), m -> List.of(log.send(m.key(), m.value())));
            }
            app = Parsley.named(TestKafka.unique(name), relay.into(log).build());
        }

        CausalStreams start(Path stateDir) {
            CausalStreams streams = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir));
            streams.start();
            TestKafka.awaitRunning(streams);
            return streams;
        }
    }
}
