package io.github.tobyjamesclements.parsley;

/**
 * The names of Parsley's metrics in the Kafka Streams registry ({@link CausalStreams#metrics()}):
 * the group, the tags and each metric's name. Every running task of a stage registers the metrics
 * named here, tagged {@value #THREAD_TAG}, {@value #TASK_TAG} and {@value #STAGE_TAG}; the
 * per-source metrics ({@link #RECORDS_UNSTAMPED_TOTAL}, {@link #RECORDS_EMPTY_STAMP_TOTAL},
 * {@link #RECORDS_DEAD_LETTERED_TOTAL}, and {@link #RECORDS_HELD} and {@link #RECORDS_HELD_AGE_MAX_MS}
 * of one source topic, the tick topic included) add
 * {@value #TOPIC_TAG}. Code reading these metrics should use these constants rather than copies, so
 * a renamed metric fails its compilation instead of reading nothing. Only constants; no instances.
 */
public final class MetricNames {

    /** The metric group of every Parsley metric. */
    public static final String GROUP = "vc-metrics";

    /** The tag naming the stage. */
    public static final String STAGE_TAG = "stage";

    /** The tag naming the source topic, on per-source metrics only. */
    public static final String TOPIC_TAG = "topic";

    /** The tag naming the Kafka Streams task. */
    public static final String TASK_TAG = "task-id";

    /** The tag naming the stream thread that registered the metric. */
    public static final String THREAD_TAG = "thread-id";

    /** Gauge: records held across the task's queues (per source: on that channel). */
    public static final String RECORDS_HELD = "records-held";

    /** Gauge: milliseconds the oldest record held has been held, computed when read. */
    public static final String RECORDS_HELD_AGE_MAX_MS = "records-held-age-max-ms";

    /** Rate: releases through the gate per second. */
    public static final String RECORDS_DELIVERED_RATE = "records-delivered-rate";

    /** Counter: releases through the gate since the task started. */
    public static final String RECORDS_DELIVERED_TOTAL = "records-delivered-total";

    /** Counter: records dropped by the replay guard. */
    public static final String REPLAYS_SKIPPED_TOTAL = "replays-skipped-total";

    /** Counter: truncation sweeps that failed and were skipped. */
    public static final String TRUNCATION_SWEEPS_SKIPPED_TOTAL = "truncation-sweeps-skipped-total";

    /**
     * Counter: stamps coarsened to stay under the stage's maxStampBytes (docs/protocol.md §10.2);
     * each may delay a delivery downstream, never reorder one.
     */
    public static final String STAMPS_COARSENED_TOTAL = "stamps-coarsened-total";

    /** Counter: ticks emitted. */
    public static final String TICKS_EMITTED_TOTAL = "ticks-emitted-total";

    /** Gauge: offset entries of the task's stamp. */
    public static final String STAMP_OFFSET_ENTRIES = "stamp-offset-entries";

    /** Counter: stamped records the task sent, emissions and ticks. */
    public static final String STAMPS_SENT_TOTAL = "stamps-sent-total";

    /** Counter: bytes of the stamps ({@code vc} header values) the task sent; per {@link #STAMPS_SENT_TOTAL}, the mean. */
    public static final String STAMP_BYTES_TOTAL = "stamp-bytes-total";

    /**
     * Gauge: bytes of the largest stamp the task sent within the metrics sample window
     * (at most {@code metrics.sample.window.ms} times {@code metrics.num.samples}); NaN when it sent none.
     */
    public static final String STAMP_BYTES_MAX = "stamp-bytes-max";

    /** Gauge: unresolved sequence entries of the task's stamp. */
    public static final String STAMP_SEQUENCE_ENTRIES = "stamp-sequence-entries";

    /** Gauge: topics the task's clocks claim that the last truncation sweep could not resolve. */
    public static final String UNRESOLVABLE_TOPICS = "unresolvable-topics";

    /** Counter, per source: records without a clock header, delivered without any ordering guarantee. */
    public static final String RECORDS_UNSTAMPED_TOTAL = "records-unstamped-total";

    /**
     * Counter, per source: records whose {@code vc} header is a plain client's stamp that claims
     * nothing (its producer had observed nothing), delivered without any ordering guarantee.
     */
    public static final String RECORDS_EMPTY_STAMP_TOTAL = "records-empty-stamp-total";

    /** Counter, per source: records of that source written to the dead-letter topic. */
    public static final String RECORDS_DEAD_LETTERED_TOTAL = "records-dead-lettered-total";

    /** Counter, client level (no tags): stream threads replaced after a transient cluster error. */
    public static final String THREAD_REPLACEMENTS_TOTAL = "thread-replacements-total";

    private MetricNames() {
    }
}
