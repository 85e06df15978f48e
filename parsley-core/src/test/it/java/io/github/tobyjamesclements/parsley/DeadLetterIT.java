package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dead-letter topic on a real broker, through a crash: a ledger folds payment amounts per
 * key and meets the three kinds of poison (unreadable clock, undecodable value, a fold that
 * throws on a record it held). The held one is released in the same step as a record whose fold
 * kills the stream thread, so its first dead letter is aborted with the step. After a restart on
 * the same state directory (the held record restored from the store) each poison record is in the
 * dead-letter topic exactly once for {@code read_committed} readers, with its key, value,
 * timestamp, headers and error headers; the balances are exact and every other record was folded
 * in order.
 */
class DeadLetterIT {

    /** Kills the stream thread: an {@link Error} is never poison, so it is never dead-lettered. */
    static final class PlannedCrash extends Error {
        private static final long serialVersionUID = 1L;

        PlannedCrash() {
            super("planned crash");
        }
    }

    private static final Codec<String> AMOUNTS = Codec.of(s -> s.getBytes(StandardCharsets.UTF_8), b -> {
        String s = new String(b, StandardCharsets.UTF_8);
        if (!s.matches("-?[0-9]+|crash")) {
            throw new IllegalArgumentException("not an amount: " + s);
        }
        return s;
    });

    @TempDir
    Path stateDir;

    @Test
    void everyPoisonKindIsDeadLetteredOnceAcrossACrashAndTheLedgerStaysExact() throws Exception {
        String payments = TestKafka.unique("dl-payments");
        String openings = TestKafka.unique("dl-openings");
        String balances = TestKafka.unique("dl-balances");
        String dead = TestKafka.unique("dl-dead");
        for (String t : List.of(payments, openings, balances, dead)) {
            TestKafka.createTopic(t, 1);
        }
        AtomicBoolean crashed = new AtomicBoolean();
        Topic<String, String> tp = Topic.of(payments, Codec.utf8(), AMOUNTS);
        Topic<String, String> to = Topic.of(openings, Codec.utf8(), Codec.utf8());
        Topic<String, Long> tb = Topic.of(balances, Codec.utf8(), Codec.int64());
        Stage ledger = Stage.named("ledger").state(Codec.int64(), () -> 0L)
                .on(tp, (Long total, Message<String, String> m) -> {
                    if (m.value().equals("crash") && crashed.compareAndSet(false, true)) {
                        throw new PlannedCrash();
                    }
                    long amount = m.value().equals("crash") ? 0 : Long.parseLong(m.value());
                    if (amount == 13) {
                        throw new IllegalStateException("unlucky amount for " + m.key());
                    }
                    return Step.of(total + amount, tb.send(m.key(), total + amount));
                })
                .on(to, (Message<String, String> m) -> List.of())
                .into(tb).build();
        Parsley app = Parsley.named(TestKafka.unique("dl"), ledger).deadLetterTopic(dead);
        List<Long> poison = new ArrayList<>();

        try (KafkaProducer<String, String> producer = TestKafka.producer()) {
            try (CausalStreams first = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir))) {
                AtomicReference<Throwable> failure = TestKafka.captureFailure(first);
                first.start();
                TestKafka.awaitRunning(first);
                send(producer, payments, "k1", "5", null);
                poison.add(send(producer, payments, "k1", "7", unreadableClock()));
                poison.add(send(producer, payments, "k1", "garbage", null));
                send(producer, payments, "k2", "3", null);
                TestKafka.readCommitted(balances, 2, Duration.ofSeconds(30));

                byte[] claim = claim(openings);
                poison.add(send(producer, payments, "k1", "13", claim));
                send(producer, payments, "k1", "crash", claim);
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !first.explainHolds().isEmpty());
                send(producer, openings, "k1", "open", null);

                Throwable crash = TestKafka.awaitFailure(first, failure);
                assertThat(TestKafka.causeOf(crash, PlannedCrash.class)).isPresent();
                assertThat(first.deadLetters()).singleElement().as("the held record was dead-lettered in the step"
                        + " that crashed").satisfies(r -> {
                            assertThat(r.count()).isEqualTo(3);
                            assertThat(r.last().offset()).isEqualTo(poison.get(2));
                        });
            }

            try (CausalStreams second = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir))) {
                second.start();
                TestKafka.awaitRunning(second);
                send(producer, payments, "k1", "10", null);
                poison.add(send(producer, payments, "k2", "4", unreadableClock()));
                send(producer, payments, "k2", "4", null);
                TestKafka.readCommitted(balances, 5, Duration.ofSeconds(60));
                Awaitility.await().atMost(Duration.ofSeconds(30))
                        .until(() -> TestKafka.readAllBytes(dead).size() >= poison.size());

                List<ConsumerRecord<byte[], byte[]>> committed = TestKafka.readAllBytes(dead);
                assertThat(committed).as("each poison record once, in order, under read_committed")
                        .extracting(r -> offsetHeader(r.headers())).containsExactlyElementsOf(poison);
                assertDeadLetters(committed, payments, claim(openings));
                assertThat(second.deadLetters()).singleElement().satisfies(r -> {
                    assertThat(r.stage()).isEqualTo("ledger");
                    assertThat(r.deadLetterTopic()).isEqualTo(dead);
                    assertThat(r.count()).isEqualTo(2);
                    assertThat(r.last().exception()).isEqualTo(CorruptClockException.class.getName());
                    assertThat(r.last().offset()).isEqualTo(poison.get(3));
                    assertThat(r.last().topic()).isEqualTo(payments);
                });
                assertThat(second.metrics().entrySet().stream()
                        .filter(e -> e.getKey().name().equals("records-dead-lettered-total")
                                && payments.equals(e.getKey().tags().get("topic")))
                        .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum()).isEqualTo(2.0);
            }
        }
        Map<String, List<Long>> byKey = new java.util.TreeMap<>();
        org.apache.kafka.common.serialization.LongDeserializer longs = new org.apache.kafka.common.serialization
                .LongDeserializer();
        for (ConsumerRecord<byte[], byte[]> r : TestKafka.readAllBytes(balances)) {
            byKey.computeIfAbsent(new String(r.key(), StandardCharsets.UTF_8), k -> new ArrayList<>())
                    .add(longs.deserialize(balances, r.value()));
        }
        assertThat(byKey).isEqualTo(Map.of("k1", List.of(5L, 5L, 15L), "k2", List.of(3L, 7L)));
    }

    private static void assertDeadLetters(List<ConsumerRecord<byte[], byte[]>> dead, String payments, byte[] claim) {
        assertThat(dead).extracting(r -> new String(r.key(), StandardCharsets.UTF_8))
                .containsExactly("k1", "k1", "k1", "k2");
        assertThat(dead).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                .containsExactly("7", "garbage", "13", "4");
        assertThat(dead).extracting(r -> text(r.headers(), PoisonRecords.EXCEPTION)).containsExactly(
                CorruptClockException.class.getName(), IllegalArgumentException.class.getName(),
                IllegalStateException.class.getName(), CorruptClockException.class.getName());
        assertThat(dead).extracting(r -> text(r.headers(), PoisonRecords.MESSAGE)).satisfiesExactly(
                m -> assertThat(m).startsWith("Unknown clock version 127"),
                m -> assertThat(m).isEqualTo("not an amount: garbage"),
                m -> assertThat(m).isEqualTo("unlucky amount for k1"),
                m -> assertThat(m).startsWith("Unknown clock version 127"));
        for (ConsumerRecord<byte[], byte[]> r : dead) {
            assertThat(text(r.headers(), PoisonRecords.TOPIC)).isEqualTo(payments);
            assertThat(text(r.headers(), PoisonRecords.PARTITION)).isEqualTo("0");
            assertThat(text(r.headers(), PoisonRecords.STACKTRACE)).contains("\tat ");
            assertThat(text(r.headers(), "trace")).as("the producer's own header").isEqualTo("t-" + offsetHeader(
                    r.headers()));
            assertThat(stageTag(r.headers())).as("dead letters are never stamped").isNull();
            assertThat(r.timestamp()).isPositive();
        }
        assertThat(dead.get(2).headers().lastHeader(CausalHeaders.CLOCK).value())
                .as("the held record keeps the clock it arrived with").isEqualTo(claim);
        assertThat(dead.get(1).headers().lastHeader(CausalHeaders.CLOCK)).isNull();
    }

    /** Sends one record with a {@code trace} header naming its own offset (this test is the only writer). */
    private static long send(KafkaProducer<String, String> producer, String topic, String key, String value,
            byte[] clock) throws Exception {
        long next = TestKafka.endOffset(topic, 0);
        ProducerRecord<String, String> r = new ProducerRecord<>(topic, key, value);
        r.headers().add("trace", ("t-" + next).getBytes(StandardCharsets.UTF_8));
        if (clock != null) {
            r.headers().add(CausalHeaders.CLOCK, clock);
        }
        long offset = producer.send(r).get(30, TimeUnit.SECONDS).offset();
        assertThat(offset).isEqualTo(next);
        return offset;
    }

    private static byte[] unreadableClock() {
        return new byte[] {0x7f, 0, 0};
    }

    /** A clock claiming offset 0 of the openings topic, which is not written yet. */
    private static byte[] claim(String openings) {
        try {
            java.util.UUID id = AdminTopicCatalog.toUuid(TestKafka.admin().describeTopics(List.of(openings))
                    .allTopicNames().get(30, TimeUnit.SECONDS).get(openings).topicId());
            return ClockCodec.encode(new VectorClock().advanceTo(new Channel(id, 0), 0));
        } catch (Exception e) {
            throw new IllegalStateException("Cannot describe " + openings, e);
        }
    }

    private static long offsetHeader(Headers headers) {
        return Long.parseLong(text(headers, PoisonRecords.OFFSET));
    }

    private static String text(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Test
    void aCompactedDeadLetterTopicIsRefusedAtStartup() {
        String in = TestKafka.unique("dl-compact-in");
        String dead = TestKafka.unique("dl-compact-dead");
        TestKafka.createTopic(in, 1);
        TestKafka.createTopic(dead, 1, Map.of("cleanup.policy", "compact"));
        Topic<String, String> t = Topic.of(in, Codec.utf8(), Codec.utf8());
        Parsley app = Parsley.named(TestKafka.unique("dl-compact"), Stage.named("s").on(t, m -> List.of()).build())
                .deadLetterTopic(dead);

        assertThatThrownBy(() -> app.streams(TestKafka.streamsProps(app.applicationId(), stateDir)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Compacted topics cannot be causal channels or dead-letter topics; topics=["
                        + dead + "]");
        String absent = TestKafka.unique("dl-absent");
        Parsley missing = Parsley.named(TestKafka.unique("dl-missing"), Stage.named("s").on(t, m -> List.of()).build())
                .deadLetterTopic(absent);
        assertThatThrownBy(() -> missing.streams(TestKafka.streamsProps(missing.applicationId(), stateDir)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Cannot resolve topic; missing topics=[" + absent + "]");
    }

    /** The sender tag of a record's clock header; null when it has none, or a clock that does not decode. */
    private static UUID stageTag(Headers headers) {
        Header vc = headers.lastHeader(CausalHeaders.CLOCK);
        if (vc == null) {
            return null;
        }
        try {
            return ClockCodec.decodeStamp(vc.value()).sender();
        } catch (CorruptClockException e) {
            return null;
        }
    }
}
