package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.LocalStamps.claiming;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How dead letters meet the other accounting of a stage: an unreadable clock is poison, never an
 * unstamped record; a held record that is dead-lettered ends its hold in the hold gauges; and the
 * dead-letter topic survives the copies that set the startup check timeout (the starter turns the
 * check off on a copy before it starts the streams).
 */
class DeadLetterAccountingTests {

    /** This test's own state directory: concurrent runs (PIT's minions, other builds) share the default one. */
    @TempDir
    Path stateDir;

    /**
     * {@link DeadLetterTopologyTests#notifier()}: it orders across two sources, so an unstamped
     * record loses its order and is counted; it throws on the payment "refund".
     */
    private static Stage notifier() {
        return DeadLetterTopologyTests.notifier();
    }

    @Test
    void anUnreadableClockIsDeadLetteredAndNotCountedAsUnstamped() {
        Parsley app = Parsley.named("shop", notifier()).deadLetterTopic("dead-letters");
        try (TopologyTestDriver d = new TopologyTestDriver(app.testTopology(), props())) {
            TestInputTopic<String, String> payments = payments(d);
            payments.pipeInput(new TestRecord<>("c1", "p1", corruptClock(), 10L));

            assertThat(metric(d, "records-dead-lettered-total", "payments")).isEqualTo(1.0);
            assertThat(metric(d, "records-unstamped-total", "payments")).isZero();

            payments.pipeInput(new TestRecord<>("c1", "p2", new RecordHeaders(), 11L));

            assertThat(metric(d, "records-unstamped-total", "payments")).isEqualTo(1.0);
            assertThat(metric(d, "records-dead-lettered-total", "payments")).isEqualTo(1.0);
            assertThat(d.createOutputTopic("notifications", new StringDeserializer(), new StringDeserializer())
                    .readValuesToList()).containsExactly("payment p2");
            assertThat(d.createOutputTopic("dead-letters", new ByteArrayDeserializer(), new ByteArrayDeserializer())
                    .readRecordsToList()).singleElement()
                    .satisfies(r -> assertThat(new String(r.value(), StandardCharsets.UTF_8)).isEqualTo("p1"));
        }
    }

    @Test
    void withoutADeadLetterTopicAnUnreadableClockFailsAndIsNotCountedAsUnstamped() {
        try (TopologyTestDriver d = new TopologyTestDriver(Parsley.named("shop", notifier()).testTopology(),
                props())) {
            TestInputTopic<String, String> payments = payments(d);

            assertThatThrownBy(() -> payments.pipeInput(new TestRecord<>("c1", "p1", corruptClock(), 10L)))
                    .hasRootCauseInstanceOf(CorruptClockException.class);
            assertThat(metric(d, "records-unstamped-total", "payments")).isZero();
        }
    }

    @Test
    void aHeldRecordThatIsDeadLetteredEndsItsHold() {
        Parsley app = Parsley.named("shop", notifier()).deadLetterTopic("dead-letters");
        try (TopologyTestDriver d = new TopologyTestDriver(app.testTopology(), props())) {
            payments(d).pipeInput(new TestRecord<>("c1", "refund", claiming("orders", 0), 10L));

            assertThat(metric(d, "records-held", null)).isEqualTo(1.0);
            assertThat(metric(d, "records-held", "payments")).isEqualTo(1.0);
            d.advanceWallClockTime(Duration.ofMillis(25));
            assertThat(metric(d, "records-held-age-max-ms", "payments")).isEqualTo(25.0);

            d.createInputTopic("orders", new StringSerializer(), new StringSerializer()).pipeInput("c1", "o1");

            assertThat(metric(d, "records-dead-lettered-total", "payments")).isEqualTo(1.0);
            assertThat(metric(d, "records-held", null)).isZero();
            assertThat(metric(d, "records-held", "payments")).isZero();
            assertThat(metric(d, "records-held-age-max-ms", null)).isZero();
            assertThat(metric(d, "records-held-age-max-ms", "payments")).isZero();
        }
    }

    @Test
    void theDeadLetterTopicAndTheStartupCheckTimeoutSurviveEachOthersCopies() {
        Parsley app = Parsley.named("shop", notifier());

        Parsley checkOff = app.deadLetterTopic("dead-letters").withStartupCheckTimeout(Duration.ZERO);
        Parsley lettersLast = app.withStartupCheckTimeout(Duration.ofSeconds(3)).deadLetterTopic("dead-letters");

        assertThat(checkOff.deadLetterTopic()).hasValue("dead-letters");
        assertThat(checkOff.startupCheckTimeout()).isZero();
        assertThat(lettersLast.deadLetterTopic()).hasValue("dead-letters");
        assertThat(lettersLast.startupCheckTimeout()).isEqualTo(Duration.ofSeconds(3));
    }

    private static TestInputTopic<String, String> payments(TopologyTestDriver d) {
        return d.createInputTopic("payments", new StringSerializer(), new StringSerializer());
    }

    private static RecordHeaders corruptClock() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(CausalHeaders.CLOCK, new byte[] {103});
        return headers;
    }


    /** A {@code vc-metrics} metric summed over tasks: of one topic, or the task-level one for a null topic. */
    private static double metric(TopologyTestDriver d, String name, String topic) {
        double sum = 0;
        for (Map.Entry<MetricName, ? extends Metric> e : d.metrics().entrySet()) {
            MetricName n = e.getKey();
            String t = n.tags().get("topic");
            if (n.group().equals(MetricNames.GROUP) && n.name().equals(name)
                    && (topic == null ? t == null : topic.equals(t))) {
                sum += ((Number) e.getValue().metricValue()).doubleValue();
            }
        }
        return sum;
    }

    private Properties props() {
        Properties p = new Properties();
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return p;
    }
}
