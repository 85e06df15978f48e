package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.LocalStamps.claiming;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stamp-size metrics of a task against the stamps it really wrote: the {@code vc} headers of
 * its output, read back from the driver, at the default INFO recording level.
 */
class StampMetricsTests {

    private static final Topic<String, String> ORDERS = Topic.of("orders", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> PAYMENTS = Topic.of("payments", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> NOTIFICATIONS = Topic.of("notifications", Codec.utf8(), Codec.utf8());

    @TempDir
    Path stateDir;

    @Test
    void sentStampsAreCountedWithTheirBytesAndTheLargest() {
        Stage notifier = Stage.named("notifier")
                .on(ORDERS, m -> List.of(NOTIFICATIONS.send(m.key(), "order " + m.value())))
                // two emissions per payment, to two keys: stamps for different partitions in one step
                .on(PAYMENTS, m -> List.of(NOTIFICATIONS.send(m.key(), "payment " + m.value()),
                        NOTIFICATIONS.send(m.key() + "-audit", "payment " + m.value())))
                .into(NOTIFICATIONS)
                .build();
        LocalTopicCatalog catalog = new LocalTopicCatalog(Set.of("orders", "payments", "notifications"));
        try (TopologyTestDriver driver = new TopologyTestDriver(Assembly.build("shop", List.of(notifier), catalog,
                HoldBoard.timedBy(System::currentTimeMillis), null), props())) {
            TestInputTopic<String, String> orders = driver.createInputTopic("orders", new StringSerializer(),
                    new StringSerializer());
            TestInputTopic<String, String> payments = driver.createInputTopic("payments", new StringSerializer(),
                    new StringSerializer());
            TestOutputTopic<String, String> out = driver.createOutputTopic("notifications", new StringDeserializer(),
                    new StringDeserializer());
            assertThat(metric(driver, MetricNames.STAMPS_SENT_TOTAL)).isZero();
            assertThat(metric(driver, MetricNames.STAMP_BYTES_MAX)).as("nothing sent in the window").isNaN();

            for (int i = 0; i < 5; i++) {
                orders.pipeInput("c" + i, "o" + i);
                payments.pipeInput(new TestRecord<>("c" + i, "p" + i, claiming("orders", i)));
            }

            List<TestRecord<String, String>> sent = out.readRecordsToList();
            assertThat(sent).hasSize(15);
            int[] bytes = sent.stream().mapToInt(r -> stampOf(r).length).toArray();
            assertThat(metric(driver, MetricNames.STAMPS_SENT_TOTAL)).isEqualTo(15.0);
            assertThat(metric(driver, MetricNames.STAMP_BYTES_TOTAL)).isEqualTo(Arrays.stream(bytes).sum());
            assertThat(metric(driver, MetricNames.STAMP_BYTES_MAX))
                    .isEqualTo(Arrays.stream(bytes).max().orElseThrow());
            // not vacuous: the stamps grow as the stage observes more, so the largest is not every stamp's size
            assertThat(Arrays.stream(bytes).min().orElseThrow()).isLessThan(
                    Arrays.stream(bytes).max().orElseThrow());
        }
    }

    private static byte[] stampOf(TestRecord<String, String> r) {
        Header vc = r.headers().lastHeader(CausalHeaders.CLOCK);
        assertThat(vc).as("every output is stamped").isNotNull();
        return vc.value();
    }

    private static double metric(TopologyTestDriver driver, String name) {
        return driver.metrics().entrySet().stream()
                .filter(e -> {
                    MetricName n = e.getKey();
                    return n.group().equals(MetricNames.GROUP) && n.name().equals(name);
                })
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .reduce((a, b) -> {
                    throw new AssertionError("More than one metric " + name);
                })
                .orElseThrow(() -> new AssertionError("No metric " + name));
    }

    private Properties props() {
        Properties p = new Properties();
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "shop");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return p;
    }
}
