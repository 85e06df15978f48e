package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.LocalStamps.claiming;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Poison records on the broker-less topology: with a dead-letter topic each of the three kinds
 * (unreadable clock, undecodable value, throwing fold or handler) goes there with its original
 * key, value, timestamp and headers plus the error headers, and the stage moves on with its fold
 * state and every other record intact; without one the task fails with a message that ends with
 * the ways out.
 */
class DeadLetterTopologyTests {

    private static final Codec<String> STRICT = Codec.of(s -> s.getBytes(StandardCharsets.UTF_8), b -> {
        String s = new String(b, StandardCharsets.UTF_8);
        if (s.startsWith("garbage")) {
            throw new IllegalArgumentException("not a payment: " + s);
        }
        return s;
    });
    private static final Topic<String, String> ORDERS = Topic.of("orders", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> PAYMENTS = Topic.of("payments", Codec.utf8(), STRICT);
    private static final Topic<String, String> NOTIFICATIONS = Topic.of("notifications", Codec.utf8(), Codec.utf8());
    private static final Topic<String, Long> TOTALS = Topic.of("totals", Codec.utf8(), Codec.int64());

    /** This test's own state directory: concurrent runs (PIT's minions, other builds) share the default one. */
    @TempDir
    Path stateDir;

    /** A fold of payment amounts; it throws on the amount 13. */
    private static Stage balances() {
        return Stage.named("balances").state(Codec.int64(), () -> 0L)
                .on(PAYMENTS, (Long total, Message<String, String> m) -> {
                    long amount = Long.parseLong(m.value());
                    if (amount == 13) {
                        throw new IllegalStateException("unlucky amount on " + m.key());
                    }
                    return Step.of(total + amount, TOTALS.send(m.key(), total + amount));
                })
                .into(TOTALS).build();
    }

    /** Notifies orders and payments; the payment handler throws on the value "refund". */
    static Stage notifier() {
        return Stage.named("notifier")
                .on(ORDERS, m -> List.of(NOTIFICATIONS.send(m.key(), "order " + m.value())))
                .on(PAYMENTS, m -> {
                    if (m.value().equals("refund")) {
                        throw new UnsupportedOperationException("refunds are not supported");
                    }
                    return List.of(NOTIFICATIONS.send(m.key(), "payment " + m.value()));
                })
                .into(NOTIFICATIONS).build();
    }

    @Test
    void eachPoisonKindIsDeadLetteredWithItsRecordAndTheFoldStateIsUntouched() {
        Parsley app = Parsley.named("bank", balances()).deadLetterTopic("dead-letters");
        try (TopologyTestDriver d = new TopologyTestDriver(app.testTopology(), props())) {
            TestInputTopic<String, String> in = d.createInputTopic("payments", new StringSerializer(),
                    new StringSerializer());
            Headers corrupt = new RecordHeaders().add("trace", new byte[] {7}).add(CausalHeaders.CLOCK, new byte[] {103});
            in.pipeInput(new TestRecord<>("a", "5", new RecordHeaders(), 1000L));
            in.pipeInput(new TestRecord<>("a", "7", corrupt, 2000L));
            in.pipeInput(new TestRecord<>("a", "garbage!", new RecordHeaders(), 3000L));
            in.pipeInput(new TestRecord<>("a", "13", new RecordHeaders(), 4000L));
            in.pipeInput(new TestRecord<>("a", "10", new RecordHeaders(), 5000L));

            assertThat(d.createOutputTopic("totals", new StringDeserializer(), new LongDeserializer())
                    .readKeyValuesToList()).containsExactly(KeyValue.pair("a", 5L), KeyValue.pair("a", 15L));
            List<TestRecord<byte[], byte[]>> dead = deadLetters(d);
            assertThat(dead).hasSize(3);
            assertDeadLetter(dead.get(0), "a", "7", 2000L, CorruptClockException.class.getName(), "payments", 1);
            assertThat(text(dead.get(0).headers(), PoisonRecords.MESSAGE))
                    .isEqualTo("Unknown clock version 103; this build reads versions 2 and 3; topic=payments, partition=0,"
                            + " offset=1");
            assertThat(dead.get(0).headers().lastHeader("trace").value()).containsExactly(7);
            assertThat(dead.get(0).headers().lastHeader(CausalHeaders.CLOCK).value()).containsExactly(103);
            assertDeadLetter(dead.get(1), "a", "garbage!", 3000L, IllegalArgumentException.class.getName(), "payments",
                    2);
            assertThat(text(dead.get(1).headers(), PoisonRecords.MESSAGE)).isEqualTo("not a payment: garbage!");
            assertThat(text(dead.get(1).headers(), PoisonRecords.STACKTRACE))
                    .startsWith("java.lang.IllegalArgumentException: not a payment: garbage!")
                    .contains("DeadLetterTopologyTests");
            assertDeadLetter(dead.get(2), "a", "13", 4000L, IllegalStateException.class.getName(), "payments", 3);
            assertThat(deadLettered(d, "payments")).isEqualTo(3.0);
        }
    }

    @Test
    void aHeldRecordIsDeadLetteredWithTheHeadersItArrivedWith() {
        Parsley app = Parsley.named("shop", notifier()).deadLetterTopic("dead-letters");
        try (TopologyTestDriver d = new TopologyTestDriver(app.testTopology(), props())) {
            TestInputTopic<String, String> orders = d.createInputTopic("orders", new StringSerializer(),
                    new StringSerializer());
            TestInputTopic<String, String> payments = d.createInputTopic("payments", new StringSerializer(),
                    new StringSerializer());
            RecordHeaders headers = claiming("orders", 0);
            headers.add("trace", "t-1".getBytes(StandardCharsets.UTF_8));
            payments.pipeInput(new TestRecord<>("c1", "refund", headers, 10L));
            payments.pipeInput(new TestRecord<>("c1", "p2", claiming("orders", 0), 11L));
            assertThat(deadLetters(d)).isEmpty();

            orders.pipeInput("c1", "o1");

            assertThat(d.createOutputTopic("notifications", new StringDeserializer(), new StringDeserializer())
                    .readValuesToList()).containsExactly("order o1", "payment p2");
            List<TestRecord<byte[], byte[]>> dead = deadLetters(d);
            assertThat(dead).hasSize(1);
            assertDeadLetter(dead.get(0), "c1", "refund", 10L, UnsupportedOperationException.class.getName(),
                    "payments", 0);
            assertThat(text(dead.get(0).headers(), "trace")).isEqualTo("t-1");
            assertThat(dead.get(0).headers().lastHeader(CausalHeaders.CLOCK).value())
                    .isEqualTo(headers.lastHeader(CausalHeaders.CLOCK).value());
            assertThat(CausalHeaders.sender(dead.get(0).headers())).as("a dead letter is never stamped").isEmpty();
        }
    }

    @Test
    void anEmissionThatCannotBeEncodedSendsNothingOfItsStep() {
        Codec<String> refusing = Codec.of(s -> {
            if (s.contains("!")) {
                throw new IllegalArgumentException("no shouting");
            }
            return s.getBytes(StandardCharsets.UTF_8);
        }, b -> new String(b, StandardCharsets.UTF_8));
        Topic<String, String> loud = Topic.of("loud", Codec.utf8(), refusing);
        Stage echo = Stage.named("echo")
                .on(ORDERS, m -> List.of(NOTIFICATIONS.send(m.key(), m.value()), loud.send(m.key(), m.value())))
                .into(NOTIFICATIONS, loud).build();
        try (TopologyTestDriver d = new TopologyTestDriver(Parsley.named("echo", echo).deadLetterTopic("dl")
                .testTopology(), props())) {
            TestInputTopic<String, String> in = d.createInputTopic("orders", new StringSerializer(),
                    new StringSerializer());
            in.pipeInput("k", "hi!");
            in.pipeInput("k", "calm");

            assertThat(d.createOutputTopic("notifications", new StringDeserializer(), new StringDeserializer())
                    .readValuesToList()).containsExactly("calm");
            List<TestRecord<byte[], byte[]>> dead = d.createOutputTopic("dl", new ByteArrayDeserializer(),
                    new ByteArrayDeserializer()).readRecordsToList();
            assertThat(dead).hasSize(1);
            assertThat(text(dead.get(0).headers(), PoisonRecords.MESSAGE)).isEqualTo("no shouting");
        }
    }

    @Test
    void withoutADeadLetterTopicAnUnreadableClockFailsNamingBothWaysOut() {
        try (TopologyTestDriver d = new TopologyTestDriver(Parsley.named("shop", notifier()).testTopology(), props())) {
            TestInputTopic<String, String> payments = d.createInputTopic("payments", new StringSerializer(),
                    new StringSerializer());
            payments.pipeInput("c1", "p0");
            RecordHeaders corrupt = new RecordHeaders();
            corrupt.add(CausalHeaders.CLOCK, new byte[] {103});

            assertThatThrownBy(() -> payments.pipeInput(new TestRecord<>("c1", "p1", corrupt)))
                    .hasRootCauseInstanceOf(CorruptClockException.class).rootCause()
                    .hasMessageStartingWith("Unknown clock version 103; this build reads versions 2 and 3; topic=payments,"
                            + " partition=0, offset=1; to move on, either set a dead-letter topic")
                    .hasMessageContaining("parsley.dead-letter-topic")
                    .hasMessageContaining("keeping the state directory and the changelogs so fold state survives")
                    .hasMessageEndingWith("kafka-consumer-groups.sh --bootstrap-server <brokers> --reset-offsets"
                            + " --group shop --topic payments:0 --to-offset 2 --execute, but only if the group's"
                            + " committed offset on payments:0 is 1 (kafka-consumer-groups.sh --describe --group shop):"
                            + " earlier records of payments:0 were processed in the aborted transaction, and a reset"
                            + " from a lower committed offset would skip them too (docs/operations.md,"
                            + " \"A poison record\")");
        }
    }

    @Test
    void withoutADeadLetterTopicAFailingHandlerNamesTheRecordAndWhetherAResetCanSkipIt() {
        try (TopologyTestDriver d = new TopologyTestDriver(Parsley.named("shop", notifier()).testTopology(), props())) {
            TestInputTopic<String, String> payments = d.createInputTopic("payments", new StringSerializer(),
                    new StringSerializer());
            assertThatThrownBy(() -> payments.pipeInput("c1", "refund"))
                    .cause().isInstanceOf(PoisonRecordException.class)
                    .hasMessageStartingWith("Stage code failed on a record; stage=notifier, topic=payments,"
                            + " partition=0, offset=0, failed=handler: java.lang.UnsupportedOperationException:"
                            + " refunds are not supported; to move on, either set a dead-letter topic")
                    .hasMessageContaining("--group shop --topic payments:0 --to-offset 1 --execute, exact here: this"
                            + " task met no earlier record of payments:0 since it started")
                    .hasRootCauseInstanceOf(UnsupportedOperationException.class);
        }
        try (TopologyTestDriver d = new TopologyTestDriver(Parsley.named("shop", notifier()).testTopology(), props())) {
            d.createInputTopic("payments", new StringSerializer(), new StringSerializer())
                    .pipeInput(new TestRecord<>("c1", "refund", claiming("orders", 0)));
            TestInputTopic<String, String> orders = d.createInputTopic("orders", new StringSerializer(),
                    new StringSerializer());

            assertThatThrownBy(() -> orders.pipeInput("c1", "o1")).cause()
                    .isInstanceOfSatisfying(PoisonRecordException.class, p -> {
                        assertThat(p.held()).isTrue();
                        assertThat(List.of(p.stage(), p.topic(), p.partition(), p.offset()))
                                .containsExactly("notifier", "payments", 0, 0L);
                    })
                    .hasMessageContaining("the record was held and lives in the stage's state store, so moving the"
                            + " consumer group past it cannot skip it")
                    .hasMessageNotContaining("kafka-consumer-groups.sh");
        }
    }

    @Test
    void theDeadLetterTopicMustBeALegalTopicNoStageConsumes() {
        Stage ticking = Stage.named("ticking").on(ORDERS, m -> List.of())
                .ticks(java.time.Duration.ofSeconds(1), t -> List.of()).build();
        Parsley app = Parsley.named("shop", ticking);

        assertThatThrownBy(() -> app.deadLetterTopic("orders")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Dead-letter topic is a source of a stage; applicationId=shop, topic=orders,"
                        + " stage=ticking; dead letters would be consumed again: use a topic no stage consumes");
        assertThatThrownBy(() -> app.deadLetterTopic("shop-ticking-ticks")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> app.deadLetterTopic("dead letters")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a legal Kafka topic name");
        assertThatThrownBy(() -> app.deadLetterTopic("..")).isInstanceOf(IllegalArgumentException.class);
        assertThat(app.deadLetterTopic()).isEmpty();
        assertThat(app.deadLetterTopic("dl").deadLetterTopic()).hasValue("dl");
        assertThat(app.deadLetterTopic("dl").toString()).endsWith(", deadLetterTopic=dl]");
    }

    @Test
    void aHandlerReturningNoListOrANullEmissionIsDeadLetteredAndTheNextRecordIsHandled() {
        Stage relay = Stage.named("relay")
                .on(ORDERS, m -> switch (m.value()) {
                    case "none" -> null;
                    case "hole" -> Arrays.asList(NOTIFICATIONS.send(m.key(), "x"), null);
                    default -> List.of(NOTIFICATIONS.send(m.key(), "order " + m.value()));
                })
                .into(NOTIFICATIONS).build();
        Parsley app = Parsley.named("shop", relay).deadLetterTopic("dead-letters");
        try (TopologyTestDriver d = new TopologyTestDriver(app.testTopology(), props())) {
            TestInputTopic<String, String> in = d.createInputTopic("orders", new StringSerializer(),
                    new StringSerializer());
            in.pipeInput(new TestRecord<>("a", "none", new RecordHeaders(), 1000L));
            in.pipeInput(new TestRecord<>("a", "hole", new RecordHeaders(), 2000L));
            in.pipeInput(new TestRecord<>("a", "o1", new RecordHeaders(), 3000L));

            assertThat(d.createOutputTopic("notifications", new StringDeserializer(), new StringDeserializer())
                    .readValuesToList()).as("nothing of the failed steps is sent").containsExactly("order o1");
            List<TestRecord<byte[], byte[]>> dead = deadLetters(d);
            assertThat(dead).hasSize(2);
            assertDeadLetter(dead.get(0), "a", "none", 1000L, NullPointerException.class.getName(), "orders", 0);
            assertDeadLetter(dead.get(1), "a", "hole", 2000L, NullPointerException.class.getName(), "orders", 1);
        }
    }

    private static void assertDeadLetter(TestRecord<byte[], byte[]> r, String key, String value, long timestamp,
            String exception, String topic, long offset) {
        assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo(key);
        assertThat(new String(r.value(), StandardCharsets.UTF_8)).isEqualTo(value);
        assertThat(r.timestamp()).isEqualTo(timestamp);
        assertThat(text(r.headers(), PoisonRecords.EXCEPTION)).isEqualTo(exception);
        assertThat(text(r.headers(), PoisonRecords.TOPIC)).isEqualTo(topic);
        assertThat(text(r.headers(), PoisonRecords.PARTITION)).isEqualTo("0");
        assertThat(text(r.headers(), PoisonRecords.OFFSET)).isEqualTo(Long.toString(offset));
        assertThat(r.headers().headers(PoisonRecords.STACKTRACE)).hasSize(1);
    }

    private static List<TestRecord<byte[], byte[]>> deadLetters(TopologyTestDriver d) {
        TestOutputTopic<byte[], byte[]> out = d.createOutputTopic("dead-letters", new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        return out.readRecordsToList();
    }

    private static double deadLettered(TopologyTestDriver d, String topic) {
        double sum = 0;
        for (Map.Entry<MetricName, ? extends org.apache.kafka.common.Metric> e : d.metrics().entrySet()) {
            if (e.getKey().name().equals("records-dead-lettered-total") && topic.equals(e.getKey().tags().get("topic"))) {
                sum += ((Number) e.getValue().metricValue()).doubleValue();
            }
        }
        return sum;
    }

    private static String text(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }


    private Properties props() {
        Properties p = new Properties();
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return p;
    }
}
