package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.MeasurableStat;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.metrics.stats.Value;
import org.apache.kafka.streams.StreamsMetrics;

/**
 * The {@code vc-metrics} group of one task (protocol.md §13.1), registered in Kafka Streams'
 * metrics registry so that they appear in {@code KafkaStreams#metrics()}. Hold gauges are
 * recorded when a hold starts or ends, and hold ages are computed when read, from the wall-clock
 * time the oldest current hold started; the stamp-width gauges are recorded when the 500 ms
 * punctuator samples; counters at the event. Removed when the task closes.
 */
final class StageMetrics {

    /** A hold start meaning "nothing is held". */
    static final long NO_HOLD = -1;

    private final StreamsMetrics metrics;
    private final String prefix;
    private final Map<String, String> tags;
    private final List<Sensor> sensors = new ArrayList<>();
    private final Map<String, TopicSensors> perTopic = new LinkedHashMap<>();
    /** The topic of the last claimless record and its sensors, by reference: counted per record without a lookup. */
    private String lastCountedTopic;
    private TopicSensors lastCounted;

    private final Sensor held;
    private final Sensor heldAge;
    private final Sensor delivered;
    private long unrecordedDeliveries;
    /** The node's replay count as of the last commit: the sensor records the difference. */
    private long replaysRecorded;
    private final Sensor replays;
    private final Sensor sweepsSkipped;
    private final Sensor ticks;
    private final Sensor offsetEntries;
    private final Sensor sequenceEntries;
    private final Sensor unresolvableTopics;

    StageMetrics(StreamsMetrics metrics, String stage, String taskId, Iterable<String> topics,
            LongSupplier stampsCoarsened) {
        this.metrics = metrics;
        this.prefix = "vc-" + stage + "-" + taskId + "-";
        this.tags = new LinkedHashMap<>();
        tags.put(MetricNames.THREAD_TAG, Thread.currentThread().getName());
        tags.put(MetricNames.TASK_TAG, taskId);
        tags.put(MetricNames.STAGE_TAG, stage);
        held = gauge(MetricNames.RECORDS_HELD, "Records held across the task's queues", Sensor.RecordingLevel.INFO,
                tags);
        heldAge = holdAge(MetricNames.RECORDS_HELD_AGE_MAX_MS, MetricNames.RECORDS_HELD_AGE_MAX_MS,
                "Milliseconds the oldest record this task holds has been held, computed when read",
                Sensor.RecordingLevel.INFO, tags);
        delivered = sensor("records-delivered", Sensor.RecordingLevel.INFO);
        delivered.add(name(MetricNames.RECORDS_DELIVERED_RATE, "Releases through the gate per second", tags),
                new Rate());
        delivered.add(name(MetricNames.RECORDS_DELIVERED_TOTAL, "Releases through the gate since task init", tags),
                new CumulativeSum());
        replays = counter(MetricNames.REPLAYS_SKIPPED_TOTAL, "Records dropped by the replay guard");
        sweepsSkipped = counter(MetricNames.TRUNCATION_SWEEPS_SKIPPED_TOTAL, "Failed truncation sweeps");
        ticks = counter(MetricNames.TICKS_EMITTED_TOTAL, "Ticks emitted");
        offsetEntries = gauge(MetricNames.STAMP_OFFSET_ENTRIES, "Offset entries of the stamp's sources",
                Sensor.RecordingLevel.INFO, tags);
        sequenceEntries = gauge(MetricNames.STAMP_SEQUENCE_ENTRIES,
                "Unresolved sequence entries of the stamp's sources", Sensor.RecordingLevel.INFO, tags);
        unresolvableTopics = gauge(MetricNames.UNRESOLVABLE_TOPICS,
                "Topics the stamp's clocks claim that the last truncation sweep could not resolve (claims kept)",
                Sensor.RecordingLevel.INFO, tags);
        sensor(MetricNames.STAMPS_COARSENED_TOTAL, Sensor.RecordingLevel.INFO).add(name(
                MetricNames.STAMPS_COARSENED_TOTAL, "Stamps coarsened to stay under the stage's maxStampBytes", tags),
                new ReadThrough(stampsCoarsened));
        for (String topic : topics) {
            perTopic.put(topic, new TopicSensors(topic));
        }
    }

    /** The sensors of one source channel; its hold gauges are DEBUG, its counters INFO. */
    private final class TopicSensors {

        final Sensor held;
        final Sensor heldAge;
        final Sensor unstamped;
        final Sensor emptyStamp;
        final Sensor deadLettered;
        long unrecordedUnstamped;
        long unrecordedEmptyStamp;

        TopicSensors(String topic) {
            Map<String, String> t = new LinkedHashMap<>(tags);
            t.put(MetricNames.TOPIC_TAG, topic);
            held = gauge(topic + "-" + MetricNames.RECORDS_HELD, MetricNames.RECORDS_HELD,
                    "Records held on this source channel", Sensor.RecordingLevel.DEBUG, t);
            heldAge = holdAge(topic + "-" + MetricNames.RECORDS_HELD_AGE_MAX_MS, MetricNames.RECORDS_HELD_AGE_MAX_MS,
                    "Milliseconds this channel's oldest held record has been held, computed when read",
                    Sensor.RecordingLevel.DEBUG, t);
            unstamped = sensor(topic + "-" + MetricNames.RECORDS_UNSTAMPED_TOTAL, Sensor.RecordingLevel.INFO);
            unstamped.add(name(MetricNames.RECORDS_UNSTAMPED_TOTAL, "Records without a vc clock header received by a task"
                    + " that orders across channels: delivered without any ordering guarantee", t),
                    new CumulativeSum());
            emptyStamp = sensor(topic + "-" + MetricNames.RECORDS_EMPTY_STAMP_TOTAL, Sensor.RecordingLevel.INFO);
            emptyStamp.add(name(MetricNames.RECORDS_EMPTY_STAMP_TOTAL, "Records whose vc header is a plain client's"
                    + " stamp claiming nothing, received by a task that orders across channels: delivered without"
                    + " any ordering guarantee", t), new CumulativeSum());
            deadLettered = sensor(topic + "-" + MetricNames.RECORDS_DEAD_LETTERED_TOTAL, Sensor.RecordingLevel.INFO);
            deadLettered.add(name(MetricNames.RECORDS_DEAD_LETTERED_TOTAL, "Records of this source channel written to the"
                    + " dead-letter topic", t), new CumulativeSum());
        }
    }

    /**
     * Counts deliveries; they are recorded by {@link #recordCounts()}, once per commit and sweep,
     * because a sensor recording takes a lock and reads the clock, per record on the hot path.
     */
    void delivered(int count) {
        unrecordedDeliveries += count;
    }

    /** Records the deliveries and the claimless records counted since the last call; rates and totals sum them. */
    void recordCounts() {
        if (unrecordedDeliveries > 0) {
            delivered.record(unrecordedDeliveries);
            unrecordedDeliveries = 0;
        }
        for (TopicSensors s : perTopic.values()) {
            if (s.unrecordedUnstamped > 0) {
                s.unstamped.record(s.unrecordedUnstamped);
                s.unrecordedUnstamped = 0;
            }
            if (s.unrecordedEmptyStamp > 0) {
                s.emptyStamp.record(s.unrecordedEmptyStamp);
                s.unrecordedEmptyStamp = 0;
            }
        }
    }

    /**
     * Records what the steps since the last commit changed, right before the commit: the counts,
     * the replays of {@code replaysTotal} (the node's running count) not yet recorded, and the width
     * of {@code stampBase}. Only a step changes them, and every step is followed by a commit.
     */
    void recordCommit(long replaysTotal, VectorClock stampBase) {
        recordCounts();
        if (replaysTotal > replaysRecorded) {
            replays.record(replaysTotal - replaysRecorded);
            replaysRecorded = replaysTotal;
        }
        offsetEntries.record(stampBase.offsets().size());
        sequenceEntries.record(stampBase.seqs().size());
    }

    void sweepSkipped() {
        sweepsSkipped.record(1);
    }

    void unresolvableTopics(int count) {
        unresolvableTopics.record(count);
    }

    /** One record of {@code topic} written to the dead-letter topic. */
    void deadLettered(String topic) {
        TopicSensors s = perTopic.get(topic);
        if (s != null) {
            s.deadLettered.record(1);
        }
    }

    void tickEmitted() {
        ticks.record(1);
    }

    /** Counts an unstamped record of {@code topic}; recorded with the deliveries ({@link #recordCounts()}). */
    void unstamped(String topic) {
        TopicSensors s = counted(topic);
        if (s != null) {
            s.unrecordedUnstamped++;
        }
    }

    /** Counts an empty-stamped record of {@code topic}; recorded with the deliveries ({@link #recordCounts()}). */
    void emptyStamp(String topic) {
        TopicSensors s = counted(topic);
        if (s != null) {
            s.unrecordedEmptyStamp++;
        }
    }

    /** The sensors of {@code topic}, or null for a topic that is not a source; looked up when the topic changes. */
    private TopicSensors counted(String topic) {
        if (topic != lastCountedTopic) {
            lastCounted = perTopic.get(topic);
            lastCountedTopic = topic;
        }
        return lastCounted;
    }

    /** Records the task's held count and the wall-clock start of its oldest hold ({@link #NO_HOLD} for none). */
    void holds(int heldTotal, long oldestHeldSince) {
        held.record(heldTotal);
        heldAge.record(oldestHeldSince);
    }

    /** Records one channel's held count and the wall-clock start of its oldest hold ({@link #NO_HOLD} for none). */
    void holdsOn(String topic, int heldOnTopic, long oldestHeldSince) {
        TopicSensors s = perTopic.get(topic);
        if (s != null) {
            s.held.record(heldOnTopic);
            s.heldAge.record(oldestHeldSince);
        }
    }

    void close() {
        recordCounts();
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

    private Sensor holdAge(String sensorName, String metric, String description, Sensor.RecordingLevel level,
            Map<String, String> t) {
        Sensor s = sensor(sensorName, level);
        s.add(name(metric, description, t), new HoldAge());
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
        return new MetricName(metric, MetricNames.GROUP, description, t);
    }

    /** A count the node keeps itself, read when the metric is read: nothing is recorded per send. */
    private record ReadThrough(LongSupplier count) implements MeasurableStat {

        @Override
        public void record(MetricConfig config, double value, long timeMs) {
        }

        @Override
        public double measure(MetricConfig config, long now) {
            return count.getAsLong();
        }
    }

    /**
     * The age of a hold, computed when the metric is read ({@code now} is the registry's wall clock)
     * from the hold start last recorded, so a short hold reads its true age rather than the age at
     * the last sample. Recorded on the stream thread, read from any thread.
     */
    private static final class HoldAge implements MeasurableStat {

        private volatile double heldSince = NO_HOLD;

        @Override
        public void record(MetricConfig config, double value, long timeMs) {
            heldSince = value;
        }

        @Override
        public double measure(MetricConfig config, long now) {
            double since = heldSince;
            return since < 0 ? 0 : Math.max(0, now - since);
        }
    }
}
