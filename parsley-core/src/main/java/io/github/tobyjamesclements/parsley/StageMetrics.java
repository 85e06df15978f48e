package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.metrics.stats.Value;
import org.apache.kafka.streams.StreamsMetrics;

/**
 * The {@code vc-metrics} group of one task (protocol.md §13.1), registered in Kafka Streams'
 * metrics registry so that they appear in {@code KafkaStreams#metrics()}. Gauges are recorded
 * when the 500 ms punctuator samples; counters at the event. Removed when the task closes.
 */
final class StageMetrics {

    static final String GROUP = "vc-metrics";

    private final StreamsMetrics metrics;
    private final String prefix;
    private final Map<String, String> tags;
    private final List<Sensor> sensors = new ArrayList<>();
    private final Map<String, Sensor[]> perTopic = new LinkedHashMap<>();
    private final Map<String, Sensor> deadLettered = new LinkedHashMap<>();

    private final Sensor held;
    private final Sensor heldAge;
    private final Sensor delivered;
    private final Sensor replays;
    private final Sensor sweepsSkipped;
    private final Sensor ticks;
    private final Sensor offsetEntries;
    private final Sensor sequenceEntries;
    private final Sensor unresolvableTopics;

    StageMetrics(StreamsMetrics metrics, String stage, String taskId, Iterable<String> topics) {
        this.metrics = metrics;
        this.prefix = "vc-" + stage + "-" + taskId + "-";
        this.tags = new LinkedHashMap<>();
        tags.put("thread-id", Thread.currentThread().getName());
        tags.put("task-id", taskId);
        tags.put("stage", stage);
        held = gauge("records-held", "Records held across the task's queues", Sensor.RecordingLevel.INFO, tags);
        heldAge = gauge("records-held-age-max-ms", "Milliseconds the longest-gating head has been head",
                Sensor.RecordingLevel.INFO, tags);
        delivered = sensor("records-delivered", Sensor.RecordingLevel.INFO);
        delivered.add(name("records-delivered-rate", "Releases through the gate per second", tags), new Rate());
        delivered.add(name("records-delivered-total", "Releases through the gate since task init", tags),
                new CumulativeSum());
        replays = counter("replays-skipped-total", "Records dropped by the replay guard");
        sweepsSkipped = counter("truncation-sweeps-skipped-total", "Failed truncation sweeps");
        ticks = counter("ticks-emitted-total", "Ticks emitted");
        offsetEntries = gauge("stamp-offset-entries", "Offset entries of the stamp's sources",
                Sensor.RecordingLevel.INFO, tags);
        sequenceEntries = gauge("stamp-sequence-entries", "Unresolved sequence entries of the stamp's sources",
                Sensor.RecordingLevel.INFO, tags);
        unresolvableTopics = gauge("unresolvable-topics",
                "Topics the stamp's clocks claim that the last truncation sweep could not resolve (claims kept)",
                Sensor.RecordingLevel.INFO, tags);
        for (String topic : topics) {
            Map<String, String> t = new LinkedHashMap<>(tags);
            t.put("topic", topic);
            perTopic.put(topic, new Sensor[] {
                gauge(topic + "-records-held", "records-held", "Records held on this source channel",
                        Sensor.RecordingLevel.DEBUG, t),
                gauge(topic + "-records-held-age-max-ms", "records-held-age-max-ms",
                        "Milliseconds this channel's head has been head", Sensor.RecordingLevel.DEBUG, t)});
        }
    }

    void delivered(int count) {
        for (int i = 0; i < count; i++) {
            delivered.record(1);
        }
    }

    void replays(long count) {
        if (count > 0) {
            replays.record(count);
        }
    }

    void sweepSkipped() {
        sweepsSkipped.record(1);
    }

    void unresolvableTopics(int count) {
        unresolvableTopics.record(count);
    }

    /** One record of {@code topic} written to the dead-letter topic; the counter appears at the first. */
    void deadLettered(String topic) {
        deadLettered.computeIfAbsent(topic, t -> {
            Map<String, String> tt = new LinkedHashMap<>(tags);
            tt.put("topic", t);
            Sensor s = sensor(t + "-records-dead-lettered", Sensor.RecordingLevel.INFO);
            s.add(name("records-dead-lettered-total", "Records of this source topic written to the dead-letter topic",
                    tt), new CumulativeSum());
            return s;
        }).record(1);
    }

    void tickEmitted() {
        ticks.record(1);
    }

    void sample(int heldTotal, long maxAgeMs, int offsetEntryCount, int sequenceEntryCount) {
        held.record(heldTotal);
        heldAge.record(maxAgeMs);
        offsetEntries.record(offsetEntryCount);
        sequenceEntries.record(sequenceEntryCount);
    }

    void sampleTopic(String topic, int heldOnTopic, long ageMs) {
        Sensor[] s = perTopic.get(topic);
        if (s != null) {
            s[0].record(heldOnTopic);
            s[1].record(ageMs);
        }
    }

    void close() {
        sensors.forEach(metrics::removeSensor);
        sensors.clear();
    }

    private Sensor gauge(String metric, String description, Sensor.RecordingLevel level, Map<String, String> t) {
        return gauge(metric, metric, description, level, t);
    }

    private Sensor gauge(String sensorName, String metric, String description, Sensor.RecordingLevel level,
            Map<String, String> t) {
        Sensor s = sensor(sensorName, level);
        s.add(name(metric, description, t), new Value());
        return s;
    }

    private Sensor counter(String metric, String description) {
        Sensor s = sensor(metric, Sensor.RecordingLevel.INFO);
        s.add(name(metric, description, tags), new CumulativeSum());
        return s;
    }

    private Sensor sensor(String name, Sensor.RecordingLevel level) {
        Sensor s = metrics.addSensor(prefix + name, level);
        sensors.add(s);
        return s;
    }

    private static MetricName name(String metric, String description, Map<String, String> t) {
        return new MetricName(metric, GROUP, description, t);
    }
}
