package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.Test;

/** The task metrics a step records, read back from a real Kafka Streams metrics registry. */
class StageMetricsTests {

    @Test
    void aStepThatDeliversSeveralRecordsCountsEachOfThem() {
        StreamsMetrics registry = new MockProcessorContext<byte[], byte[]>().metrics();
        StageMetrics metrics = new StageMetrics(registry, "audit", "0_1", List.of("payments"), () -> 0);

        metrics.delivered(3);
        metrics.delivered(1);
        assertThat(value(registry, MetricNames.RECORDS_DELIVERED_TOTAL)).as("counted, not yet recorded").isZero();

        metrics.recordCounts();
        metrics.recordCounts();

        assertThat(value(registry, MetricNames.RECORDS_DELIVERED_TOTAL)).isEqualTo(4.0);
        metrics.delivered(2);
        metrics.recordCounts();
        assertThat(value(registry, MetricNames.RECORDS_DELIVERED_TOTAL)).isEqualTo(6.0);
    }

    @Test
    void unstampedRecordsAreCountedPerTopicAndRecordedWithTheDeliveries() {
        StreamsMetrics registry = new MockProcessorContext<byte[], byte[]>().metrics();
        StageMetrics metrics = new StageMetrics(registry, "audit", "0_1", List.of("payments"), () -> 0);

        metrics.unstamped("payments");
        metrics.unstamped("payments");
        metrics.unstamped("not-a-source");
        assertThat(value(registry, MetricNames.RECORDS_UNSTAMPED_TOTAL)).as("counted, not yet recorded").isZero();

        metrics.recordCounts();

        assertThat(value(registry, MetricNames.RECORDS_UNSTAMPED_TOTAL)).isEqualTo(2.0);
    }

    @Test
    void unstampedRecordsOfInterleavedTopicsCountTowardsTheirOwnTopic() {
        StreamsMetrics registry = new MockProcessorContext<byte[], byte[]>().metrics();
        StageMetrics metrics = new StageMetrics(registry, "audit", "0_1", List.of("payments", "orders"), () -> 0);

        // runs and alternations, with a topic that is not a source between them, and an equal name
        // that is another instance (a consumer's topic strings need not be the source's)
        for (String topic : List.of("payments", "orders", "orders", "not-a-source", "payments", "orders",
                "payments", "payments", new String("payments"))) {
            metrics.unstamped(topic);
        }
        metrics.recordCounts();

        assertThat(topicValue(registry, MetricNames.RECORDS_UNSTAMPED_TOTAL, "payments")).isEqualTo(5.0);
        assertThat(topicValue(registry, MetricNames.RECORDS_UNSTAMPED_TOTAL, "orders")).isEqualTo(3.0);
    }

    @Test
    void emptyStampsAndUnstampedRecordsOfInterleavedTopicsCountApart() {
        StreamsMetrics registry = new MockProcessorContext<byte[], byte[]>().metrics();
        StageMetrics metrics = new StageMetrics(registry, "notifier", "0_1", List.of("payments", "orders"), () -> 0);

        // the two counts share the last topic's sensors: neither may land on the other's counter
        metrics.emptyStamp("payments");
        metrics.unstamped("payments");
        metrics.emptyStamp("payments");
        metrics.emptyStamp("orders");
        metrics.emptyStamp("not-a-source");
        metrics.unstamped("orders");
        metrics.unstamped("orders");
        assertThat(topicValue(registry, MetricNames.RECORDS_EMPTY_STAMP_TOTAL, "payments"))
                .as("counted, not yet recorded").isZero();

        metrics.recordCounts();

        assertThat(topicValue(registry, MetricNames.RECORDS_EMPTY_STAMP_TOTAL, "payments")).isEqualTo(2.0);
        assertThat(topicValue(registry, MetricNames.RECORDS_EMPTY_STAMP_TOTAL, "orders")).isEqualTo(1.0);
        assertThat(topicValue(registry, MetricNames.RECORDS_UNSTAMPED_TOTAL, "payments")).isEqualTo(1.0);
        assertThat(topicValue(registry, MetricNames.RECORDS_UNSTAMPED_TOTAL, "orders")).isEqualTo(2.0);
    }

    private static double topicValue(StreamsMetrics registry, String name, String topic) {
        return registry.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals(name) && topic.equals(e.getKey().tags().get("topic")))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .findFirst().orElseThrow();
    }

    private static double value(StreamsMetrics registry, String name) {
        return registry.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals(name))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .findFirst().orElseThrow();
    }
}
