package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.MeasurableStat;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Max;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.metrics.stats.Value;
import org.apache.kafka.streams.StreamsMetrics;

/**
 * The {@code vc-metrics} group of one task (protocol.md §13.1), registered in Kafka Streams'
 * metrics registry so that they appear in {@code KafkaStreams#metrics()}. Hold gauges, of the task
 * and of each source channel, are set when a hold starts or ends ({@link DirectStats}), and hold
 * ages are computed when read, from the wall-clock time the oldest current hold started; the
 * stamp gauges and per-record counts are recorded at each commit; other counters at the event.
 * Removed when the task closes.
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

    private final DirectStats.Latest held;
    private final DirectStats.HoldAge heldAge;
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
    private final Sensor stampsSent;
    private final Sensor stampBytes;
    private final Sensor stampBytesMax;

    StageMetrics(StreamsMetrics metrics, String stage, String taskId, Iterable<String> topics,
            LongSupplier stampsCoarsened) {
        this.metrics = metrics;
        this.prefix = "vc-" + stage + "-" + taskId + "-";
        this.tags = new LinkedHashMap<>();
        tags.put(MetricNames.THREAD_TAG, Thread.currentThread().getName());
        tags.put(MetricNames.TASK_TAG, taskId);
        tags.put(MetricNames.STAGE_TAG, stage);
        held = direct(MetricNames.RECORDS_HELD, MetricNames.RECORDS_HELD, "Records held across the task's queues",
                tags, new DirectStats.Latest());
        heldAge = direct(MetricNames.RECORDS_HELD_AGE_MAX_MS, MetricNames.RECORDS_HELD_AGE_MAX_MS,
                "Milliseconds the oldest record this task holds has been held, computed when read", tags,
                new DirectStats.HoldAge());
        delivered = sensor("records-delivered", Sensor.RecordingLevel.INFO);
        delivered.add(name(MetricNames.RECORDS_DELIVERED_RATE, "Releases through the gate per second", tags),
                new Rate());
        delivered.add(name(MetricNames.RECORDS_DELIVERED_TOTAL, "Releases through the gate since task init", tags),
                new CumulativeSum());
        replays = counter(MetricNames.REPLAYS_SKIPPED_TOTAL, "Records dropped by the replay guard");
        sweepsSkipped = counter(MetricNames.TRUNCATION_SWEEPS_SKIPPED_TOTAL, "Failed truncation sweeps");
        ticks = counter(MetricNames.TICKS_EMITTED_TOTAL, "Ticks emitted");
        offsetEntries = gauge(MetricNames.STAMP_OFFSET_ENTRIES, "Offset entries of the stamp's sources");
        sequenceEntries = gauge(MetricNames.STAMP_SEQUENCE_ENTRIES,
                "Unresolved sequence entries of the stamp's sources");
        unresolvableTopics = gauge(MetricNames.UNRESOLVABLE_TOPICS,
                "Topics the stamp's clocks claim that the last truncation sweep could not resolve (claims kept)");
        direct(MetricNames.STAMPS_COARSENED_TOTAL, MetricNames.STAMPS_COARSENED_TOTAL,
                "Stamps coarsened to stay under the stage's maxStampBytes", tags,
                new DirectStats.ReadThrough(stampsCoarsened));
        stampsSent = counter(MetricNames.STAMPS_SENT_TOTAL, "Stamped records sent: emissions and ticks");
        stampBytes = counter(MetricNames.STAMP_BYTES_TOTAL, "Bytes of the stamps sent (vc header values)");
        stampBytesMax = sensor(MetricNames.STAMP_BYTES_MAX, Sensor.RecordingLevel.INFO);
        stampBytesMax.add(name(MetricNames.STAMP_BYTES_MAX, "Bytes of the largest stamp sent within the metrics"
                + " sample window", tags), new Max());
        for (String topic : topics) {
            perTopic.put(topic, new TopicSensors(topic));
        }
    }

    /** The sensors of one source channel. */
    private final class TopicSensors {

        final DirectStats.Latest held;
        final DirectStats.HoldAge heldAge;
        final Sensor unstamped;
        final Sensor emptyStamp;
        final Sensor deadLettered;
        long unrecordedUnstamped;
        long unrecordedEmptyStamp;

        TopicSensors(String topic) {
            Map<String, String> t = new LinkedHashMap<>(tags);
            t.put(MetricNames.TOPIC_TAG, topic);
            held = direct(topic + "-" + MetricNames.RECORDS_HELD, MetricNames.RECORDS_HELD,
                    "Records held on this source channel", t, new DirectStats.Latest());
            heldAge = direct(topic + "-" + MetricNames.RECORDS_HELD_AGE_MAX_MS, MetricNames.RECORDS_HELD_AGE_MAX_MS,
                    "Milliseconds this channel's oldest held record has been held, computed when read", t,
                    new DirectStats.HoldAge());
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
     * the replays of {@code replaysTotal} (the node's running count) not yet recorded, the width
     * of {@code stampBase}, and the stamps {@code sent} (which it resets). Only a step changes them,
     * and every step is followed by a commit.
     */
    void recordCommit(long replaysTotal, VectorClock stampBase, StampingDoor.SentStamps sent) {
        recordCounts();
        if (sent.count() > 0) {
            stampsSent.record(sent.count());
            stampBytes.record(sent.bytes());
            stampBytesMax.record(sent.largest());
            sent.reset();
        }
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
        held.set(heldTotal);
        heldAge.set(oldestHeldSince);
    }

    /** Records one channel's held count and the wall-clock start of its oldest hold ({@link #NO_HOLD} for none). */
    void holdsOn(String topic, int heldOnTopic, long oldestHeldSince) {
        TopicSensors s = perTopic.get(topic);
        if (s != null) {
            s.held.set(heldOnTopic);
            s.heldAge.set(oldestHeldSince);
        }
    }

    void close() {
        recordCounts();
        sensors.forEach(metrics::removeSensor);
        sensors.clear();
    }

    private Sensor gauge(String metric, String description) {
        Sensor s = sensor(metric, Sensor.RecordingLevel.INFO);
        s.add(name(metric, description, tags), new Value());
        return s;
    }

    /** Registers {@code stat}, which the stream thread sets itself instead of recording through the sensor. */
    private <T extends MeasurableStat> T direct(String sensorName, String metric, String description,
            Map<String, String> t, T stat) {
        sensor(sensorName, Sensor.RecordingLevel.INFO).add(name(metric, description, t), stat);
        return stat;
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
}
