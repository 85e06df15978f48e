package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.LocalStamps.claiming;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fan-out on the test driver: two stages of one application consume {@code payments}; each
 * orders it against its own other sources only, with its own holds and sender identity.
 */
class FanOutTopologyTests {

    @TempDir
    Path stateDir;

    private static final Topic<String, String> ORDERS = Topic.of("orders", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> PAYMENTS = Topic.of("payments", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> AUDIT = Topic.of("audit", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> NOTIFICATIONS = Topic.of("notifications", Codec.utf8(), Codec.utf8());

    private static final Stage AUDITOR = Stage.named("auditor")
            .on(PAYMENTS, m -> List.of(AUDIT.send(m.key(), "audited " + m.value())))
            .into(AUDIT)
            .build();

    private static final Stage NOTIFIER = Stage.named("notifier")
            .on(ORDERS, m -> List.of(NOTIFICATIONS.send(m.key(), "order " + m.value())))
            .on(PAYMENTS, m -> List.of(NOTIFICATIONS.send(m.key(), "payment " + m.value())))
            .into(NOTIFICATIONS)
            .build();

    @Test
    void eachStageOrdersTheSharedTopicAgainstItsOwnSourcesOnly() {
        try (TopologyTestDriver d = new TopologyTestDriver(Parsley.named("shop", AUDITOR, NOTIFIER).testTopology(),
                props())) {
            TestInputTopic<String, String> orders = input(d, "orders");
            TestInputTopic<String, String> payments = input(d, "payments");
            TestOutputTopic<String, String> audit = output(d, "audit");
            TestOutputTopic<String, String> notifications = output(d, "notifications");

            payments.pipeInput(new TestRecord<>("c1", "p1", claiming("orders", 0)));

            // the auditor does not consume orders: the claim is not its to wait for
            assertThat(audit.readValuesToList()).containsExactly("audited p1");
            assertThat(notifications.isEmpty()).isTrue();

            orders.pipeInput("c1", "o1");

            assertThat(notifications.readValuesToList()).containsExactly("order o1", "payment p1");
            assertThat(audit.isEmpty()).isTrue();
        }
    }

    @Test
    void stagesOnOneTopicStampWithTheirOwnSenderAndSequence() {
        try (TopologyTestDriver d = new TopologyTestDriver(Parsley.named("shop", AUDITOR, NOTIFIER).testTopology(),
                props())) {
            input(d, "payments").pipeInput("c1", "p1");

            TestRecord<String, String> audited = output(d, "audit").readRecord();
            TestRecord<String, String> notified = output(d, "notifications").readRecord();
            UUID auditor = CausalHeaders.sender(audited.headers()).orElseThrow();
            UUID notifier = CausalHeaders.sender(notified.headers()).orElseThrow();
            assertThat(auditor).isNotEqualTo(notifier);
            assertThat(CausalHeaders.seq(audited.headers())).hasValue(0);
            assertThat(CausalHeaders.seq(notified.headers())).hasValue(0);
        }
    }

    @Test
    void aSharedTopicFeedsOneSourceNodeWhoseChildrenAreTheStagesReadingIt() {
        Topology topology = Parsley.named("shop", AUDITOR, NOTIFIER).testTopology();
        TopologyDescription description = topology.describe();

        assertThat(description.subtopologies()).hasSize(1);
        TopologyDescription.Source payments = description.subtopologies().iterator().next().nodes().stream()
                .filter(n -> n instanceof TopologyDescription.Source s && s.topicSet().contains("payments"))
                .map(TopologyDescription.Source.class::cast).findFirst().orElseThrow();
        assertThat(payments.topicSet()).containsExactly("payments");
        assertThat(payments.successors()).extracting(TopologyDescription.Node::name)
                .containsExactlyInAnyOrder(Assembly.processorName(AUDITOR), Assembly.processorName(NOTIFIER));
    }

    @Test
    void stagesWithoutACommonTopicKeepSubTopologiesOfTheirOwn() {
        Stage orderAudit = Stage.named("order-audit")
                .on(ORDERS, m -> List.of(AUDIT.send(m.key(), m.value())))
                .into(AUDIT)
                .build();

        assertThat(Parsley.named("shop", AUDITOR, orderAudit).testTopology().describe().subtopologies()).hasSize(2);
    }

    @Test
    void aTickTopicDeclaredAsASourceIsRefusedNamingBothStages() {
        Stage ticking = Stage.named("ticking")
                .ticks(Duration.ofSeconds(1), t -> List.of())
                .on(PAYMENTS, m -> List.of())
                .build();
        Topic<String, String> ticks = Topic.of("shop-ticking-ticks", Codec.utf8(), Codec.utf8());
        Stage listener = Stage.named("listener").on(ticks, m -> List.of()).build();

        assertThatThrownBy(() -> Parsley.named("shop", ticking, listener))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("topic=shop-ticking-ticks")
                .hasMessageContaining("stage=listener")
                .hasMessageContaining("ticking stage=ticking");
    }

    private static TestInputTopic<String, String> input(TopologyTestDriver d, String topic) {
        return d.createInputTopic(topic, new StringSerializer(), new StringSerializer());
    }

    private static TestOutputTopic<String, String> output(TopologyTestDriver d, String topic) {
        return d.createOutputTopic(topic, new StringDeserializer(), new StringDeserializer());
    }


    /** A state directory of this test's own, so runs elsewhere on the machine cannot hold its RocksDB locks. */
    private Properties props() {
        Properties p = new Properties();
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return p;
    }
}
