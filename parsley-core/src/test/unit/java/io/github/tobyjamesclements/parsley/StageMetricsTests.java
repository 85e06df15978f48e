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

    @Test
    void holdGaugesOfTheTaskAndOfEachSourceTopicReadAtTheDefaultRecordingLevel() {
        StreamsMetrics registry = new MockProcessorContext<byte[], byte[]>().metrics();
        StageMetrics metrics = new StageMetrics(registry, "notifier", "0_1", List.of("payments", "orders"), () -> 0);
        long fiveSecondsAgo = System.currentTimeMillis() - 5_000;

        metrics.holdsOn("payments", 2, fiveSecondsAgo);
        metrics.holdsOn("orders", 0, StageMetrics.NO_HOLD);
        metrics.holds(2, fiveSecondsAgo);

        assertThat(topicValue(registry, MetricNames.RECORDS_HELD, "payments")).isEqualTo(2.0);
        assertThat(topicValue(registry, MetricNames.RECORDS_HELD_AGE_MAX_MS, "payments")).isGreaterThanOrEqualTo(5_000);
        assertThat(topicValue(registry, MetricNames.RECORDS_HELD, "orders")).isZero();
        assertThat(topicValue(registry, MetricNames.RECORDS_HELD_AGE_MAX_MS, "orders")).isZero();
        assertThat(taskValue(registry, MetricNames.RECORDS_HELD)).isEqualTo(2.0);

        metrics.holdsOn("payments", 0, StageMetrics.NO_HOLD);
        assertThat(topicValue(registry, MetricNames.RECORDS_HELD_AGE_MAX_MS, "payments")).isZero();
    }

    @Test
    void sentStampsAreRecordedOnceAtTheCommitAfterThem() {
        StreamsMetrics registry = new MockProcessorContext<byte[], byte[]>().metrics();
        StageMetrics metrics = new StageMetrics(registry, "audit", "0_1", List.of("payments"), () -> 0);
        StampingDoor.SentStamps sent = new StampingDoor.SentStamps();

        sent.add(40);
        sent.add(90);
        sent.add(60);
        metrics.recordCommit(0, new VectorClock(), sent);
        metrics.recordCommit(0, new VectorClock(), sent);

        assertThat(value(registry, MetricNames.STAMPS_SENT_TOTAL)).isEqualTo(3.0);
        assertThat(value(registry, MetricNames.STAMP_BYTES_TOTAL)).isEqualTo(190.0);
        assertThat(value(registry, MetricNames.STAMP_BYTES_MAX)).isEqualTo(90.0);
        sent.add(30);
        metrics.recordCommit(0, new VectorClock(), sent);
        assertThat(value(registry, MetricNames.STAMPS_SENT_TOTAL)).isEqualTo(4.0);
        assertThat(value(registry, MetricNames.STAMP_BYTES_MAX)).as("the largest in the window").isEqualTo(90.0);
    }

    private static double taskValue(StreamsMetrics registry, String name) {
        return registry.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals(name) && !e.getKey().tags().containsKey("topic"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .findFirst().orElseThrow();
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
