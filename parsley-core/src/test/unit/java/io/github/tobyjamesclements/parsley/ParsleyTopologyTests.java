package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.LocalStamps.claiming;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParsleyTopologyTests {

    private static final Topic<String, String> ORDERS = Topic.of("orders", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> PAYMENTS = Topic.of("payments", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> NOTIFICATIONS = Topic.of("notifications", Codec.utf8(), Codec.utf8());
    private static final Topic<String, Long> TOTALS = Topic.of("totals", Codec.utf8(), Codec.int64());

    /** This test's own state directory: concurrent runs (PIT's minions, other builds) share the default one. */
    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<String, String> orders;
    private TestInputTopic<String, String> payments;
    private TestOutputTopic<String, String> notifications;

    @BeforeEach
    void start() {
        Stage notifier = Stage.named("notifier")
                .on(ORDERS, m -> List.of(NOTIFICATIONS.send(m.key(), "order " + m.value())))
                .on(PAYMENTS, m -> List.of(NOTIFICATIONS.send(m.key(), "payment " + m.value())))
                .into(NOTIFICATIONS)
                .build();
        driver = new TopologyTestDriver(Parsley.named("shop", notifier).testTopology(), props());
        orders = driver.createInputTopic("orders", new StringSerializer(), new StringSerializer());
        payments = driver.createInputTopic("payments", new StringSerializer(), new StringSerializer());
        notifications = driver.createOutputTopic("notifications", new StringDeserializer(), new StringDeserializer());
    }

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void paymentClaimingAnUnseenOrderIsHeldUntilTheOrderArrives() {
        payments.pipeInput(new TestRecord<>("c1", "p1", claiming("orders", 0)));
        assertThat(notifications.isEmpty()).isTrue();

        orders.pipeInput("c1", "o1");

        assertThat(notifications.readKeyValuesToList()).containsExactly(
                KeyValue.pair("c1", "order o1"), KeyValue.pair("c1", "payment p1"));
    }

    @Test
    void aHeldRecordKeepsItsClockWhileLaterRecordsAreRead() {
        // the task reads every stamp into one clock: the held payment must keep the claim it came with
        payments.pipeInput(new TestRecord<>("c1", "p1", claiming("orders", 1)));
        payments.pipeInput(new TestRecord<>("c1", "p2", claiming("orders", 0)));
        orders.pipeInput("c1", "o1");

        assertThat(notifications.readValuesToList()).as("p1 waits for the second order").containsExactly("order o1");

        orders.pipeInput("c1", "o2");

        assertThat(notifications.readValuesToList()).containsExactly("order o2", "payment p1", "payment p2");
    }

    @Test
    void recordsWithoutClocksAreDeliveredAtOnce() {
        payments.pipeInput("c1", "p1");
        orders.pipeInput("c1", "o1");

        assertThat(notifications.readValuesToList()).containsExactly("payment p1", "order o1");
    }

    @Test
    void everyEmissionCarriesOneProtocolHeaderWithItsSenderTag() {
        orders.pipeInput("c1", "o1");

        TestRecord<String, String> out = notifications.readRecord();
        assertThat(out.headers().toArray()).hasSize(1);
        assertThat(CausalHeaders.sender(out.headers())).isPresent();
        assertThat(CausalHeaders.seq(out.headers())).hasValue(0);
        VectorClock clock = ClockCodec.decodeStamp(out.headers().lastHeader(CausalHeaders.CLOCK).value()).clock();
        assertThat(clock.offset(new Channel(LocalTopicCatalog.idOf("orders"), 0))).isEqualTo(0);
    }

    @Test
    void corruptClockHeaderFailsNamingTheCoordinate() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(CausalHeaders.CLOCK, new byte[] {0x02});

        assertThatThrownBy(() -> payments.pipeInput(new TestRecord<>("c1", "p1", headers)))
                .hasRootCauseInstanceOf(CorruptClockException.class)
                .rootCause().hasMessageContaining("topic=payments, partition=0, offset=0");
        assertThat(notifications.isEmpty()).isTrue();
    }

    @Test
    void foldStateIsKeptPerKey() {
        Stage balances = Stage.named("balances")
                .state(Codec.int64(), () -> 0L)
                .on(PAYMENTS, (Long total, Message<String, String> m) -> {
                    long next = total + Long.parseLong(m.value());
                    return Step.of(next, TOTALS.send(m.key(), next));
                })
                .into(TOTALS)
                .build();
        try (TopologyTestDriver d = new TopologyTestDriver(Parsley.named("bank", balances).testTopology(), props())) {
            TestInputTopic<String, String> in = d.createInputTopic("payments", new StringSerializer(),
                    new StringSerializer());
            in.pipeInput("a", "5");
            in.pipeInput("b", "7");
            in.pipeInput("a", "10");
            assertThat(d.createOutputTopic("totals", new StringDeserializer(),
                    new org.apache.kafka.common.serialization.LongDeserializer()).readKeyValuesToList())
                    .containsExactly(KeyValue.pair("a", 5L), KeyValue.pair("b", 7L), KeyValue.pair("a", 15L));
        }
    }

    @Test
    void emissionToAnUndeclaredSinkFailsNamingTheDeclaredSinks() {
        Stage leaky = Stage.named("leaky")
                .on(ORDERS, m -> List.of(PAYMENTS.send(m.key(), m.value())))
                .into(NOTIFICATIONS)
                .build();
        try (TopologyTestDriver d = new TopologyTestDriver(Parsley.named("leak", leaky).testTopology(), props())) {
            TestInputTopic<String, String> in = d.createInputTopic("orders", new StringSerializer(),
                    new StringSerializer());
            assertThatThrownBy(() -> in.pipeInput("c1", "o1"))
                    .hasRootCauseInstanceOf(IllegalArgumentException.class)
                    .rootCause().hasMessageContaining("topic=payments").hasMessageContaining("[notifications]");
        }
    }


    private Properties props() {
        Properties p = new Properties();
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return p;
    }
}
