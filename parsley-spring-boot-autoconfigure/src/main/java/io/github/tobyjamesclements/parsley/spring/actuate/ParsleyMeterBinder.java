package io.github.tobyjamesclements.parsley.spring.actuate;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.MetricNames;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleBinaryOperator;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;
import org.jspecify.annotations.Nullable;

/**
 * Micrometer meters for Parsley's {@code vc-metrics} and for the Kafka Streams client- and
 * thread-level metrics. Every meter reads the live metric on each sample; {@link #refresh()}
 * registers Streams metrics that appeared since the last call.
 *
 * <p>Parsley's meters are aggregated per stage across local tasks, so tags stay low-cardinality:
 * {@code application} and {@code stage}, plus {@code topic} for per-source meters. Summing a
 * meter over its {@code stage} tag is meaningful for counts, not for maxima, and a registry
 * without a tag filter (Actuator's {@code /actuator/metrics/<name>}) sums. The maxima users alert
 * on therefore also exist as {@code parsley.application.*} meters, tagged {@code application}
 * only, whose value is the maximum over every stage. They have names of their own rather than a
 * {@code stage=all} tag value, so that a query over a per-stage name never counts a stage twice.
 *
 * <p>Per stage and source topic (the tick topic included), {@code parsley.topic.records.held} and
 * {@code parsley.topic.records.held.age.max} are the holds of that topic's channels; they have names
 * of their own because Prometheus refuses one name with two sets of tag keys. Per stage and source
 * topic, {@code parsley.records.unstamped} and
 * {@code parsley.records.empty.stamp} count the records that claim nothing (no {@code vc} header,
 * or a plain stamp without claims) at a stage that orders across channels. With a dead-letter topic, {@code parsley.records.dead.lettered} counts per stage and source
 * topic the records written there. {@code parsley.thread.replacements} counts the stream threads
 * replaced after a transient cluster error. {@code kafka.consumer.records.lag.max}, tagged with the
 * embedded consumer's {@code client-id}, is the most records any partition of that consumer trails
 * its log end by.
 */
public class ParsleyMeterBinder implements MeterBinder, KafkaStreams.StateListener {

    private static final Set<String> CLIENT_GROUPS = Set.of("stream-metrics", "stream-thread-metrics");

    private final CausalStreams streams;
    private final Parsley parsley;
    private final Set<MetricName> bound = new HashSet<>();
    private volatile @Nullable MeterRegistry registry;

    /**
     * Creates the binder.
     *
     * @param streams the application
     * @param parsley its composition
     */
    public ParsleyMeterBinder(CausalStreams streams, Parsley parsley) {
        this.streams = streams;
        this.parsley = parsley;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
        for (Stage stage : parsley.stages()) {
            bindStage(registry, stage);
        }
        applicationMax(registry, "parsley.application.records.held.age.max",
                "Milliseconds the oldest record held by any stage has been held", MetricNames.RECORDS_HELD_AGE_MAX_MS);
        applicationMax(registry, "parsley.application.stamp.offset.entries", "Offset entries of the widest stamp of"
                + " any stage", MetricNames.STAMP_OFFSET_ENTRIES);
        applicationMax(registry, "parsley.application.stamp.sequence.entries", "Unresolved sequence entries of the"
                + " widest stamp of any stage", MetricNames.STAMP_SEQUENCE_ENTRIES);
        applicationMax(registry, "parsley.application.stamp.bytes.max", "Bytes of the largest stamp any stage sent"
                + " within the metrics sample window", MetricNames.STAMP_BYTES_MAX);
        applicationMax(registry, "parsley.application.topics.unresolvable", "Most topics any stage's clocks claim"
                + " that it cannot resolve", MetricNames.UNRESOLVABLE_TOPICS);
        FunctionCounter.builder("parsley.thread.replacements", streams,
                s -> aggregate(s, null, null, MetricNames.THREAD_REPLACEMENTS_TOTAL, Double::sum))
                .description("Stream threads replaced after a transient cluster error; the application stops once"
                        + " parsley.transient-errors.retries are spent in a window")
                .tags(Tags.of("application", parsley.applicationId())).register(registry);
        refresh();
    }

    /** The per-stage meters, tagged with the application and the stage. */
    private void bindStage(MeterRegistry registry, Stage stage) {
        Tags tags = Tags.of("application", parsley.applicationId(), "stage", stage.name());
        gauge(registry, "parsley.records.held", "Records held across the stage's local queues", tags,
                stage.name(), MetricNames.RECORDS_HELD, Double::sum);
        gauge(registry, "parsley.records.held.age.max", "Milliseconds the longest-gating head has been held",
                tags, stage.name(), MetricNames.RECORDS_HELD_AGE_MAX_MS, Math::max);
        gauge(registry, "parsley.stamp.offset.entries", "Offset entries of the widest stamp", tags, stage.name(),
                MetricNames.STAMP_OFFSET_ENTRIES, Math::max);
        gauge(registry, "parsley.stamp.sequence.entries", "Unresolved sequence entries of the widest stamp",
                tags, stage.name(), MetricNames.STAMP_SEQUENCE_ENTRIES, Math::max);
        gauge(registry, "parsley.stamp.bytes.max", "Bytes of the largest stamp sent within the metrics sample window",
                tags, stage.name(), MetricNames.STAMP_BYTES_MAX, Math::max);
        counter(registry, "parsley.stamp.bytes", "Bytes of the stamps (vc header values) sent", tags, stage.name(),
                MetricNames.STAMP_BYTES_TOTAL);
        counter(registry, "parsley.stamps.sent", "Stamped records sent, emissions and ticks", tags, stage.name(),
                MetricNames.STAMPS_SENT_TOTAL);
        gauge(registry, "parsley.topics.unresolvable",
                "Topics the stage's clocks claim that it cannot resolve (deleted, or not visible to its principal);"
                + " claims on them are kept", tags, stage.name(), MetricNames.UNRESOLVABLE_TOPICS, Math::max);
        counter(registry, "parsley.records.delivered", "Records released through the gate", tags, stage.name(),
                MetricNames.RECORDS_DELIVERED_TOTAL);
        counter(registry, "parsley.replays.skipped", "Records dropped by the replay guard", tags, stage.name(),
                MetricNames.REPLAYS_SKIPPED_TOTAL);
        counter(registry, "parsley.truncation.sweeps.skipped", "Failed truncation sweeps", tags, stage.name(),
                MetricNames.TRUNCATION_SWEEPS_SKIPPED_TOTAL);
        counter(registry, "parsley.ticks.emitted", "Ticks emitted", tags, stage.name(),
                MetricNames.TICKS_EMITTED_TOTAL);
        counter(registry, "parsley.stamps.coarsened", "Stamps coarsened to stay under the stage's max-stamp-bytes",
                tags, stage.name(), MetricNames.STAMPS_COARSENED_TOTAL);
        for (String topic : stage.sourceTopics()) {
            sourceCounter(registry, "parsley.records.unstamped", "Records without a vc clock header received by a"
                    + " stage that orders across channels; they are delivered without any ordering guarantee",
                    tags, stage, topic, MetricNames.RECORDS_UNSTAMPED_TOTAL);
            sourceCounter(registry, "parsley.records.empty.stamp", "Records whose vc header claims nothing (their"
                    + " producer stamps but had observed nothing) received by a stage that orders across channels;"
                    + " they are delivered without any ordering guarantee", tags, stage, topic,
                    MetricNames.RECORDS_EMPTY_STAMP_TOTAL);
        }
        channelTopics(registry, tags, stage);
    }

    /** The meters of each source topic and the tick topic of the stage, from the per-topic Streams metrics. */
    private void channelTopics(MeterRegistry registry, Tags tags, Stage stage) {
        List<String> topics = new ArrayList<>(stage.sourceTopics());
        stage.tickInterval().ifPresent(t -> topics.add(stage.tickTopic(parsley.applicationId())));
        for (String topic : topics) {
            Tags topicTags = tags.and("topic", topic);
            Gauge.builder("parsley.topic.records.held", streams,
                    s -> aggregate(s, stage.name(), topic, MetricNames.RECORDS_HELD, Double::sum))
                    .description("Records held on the topic's channels by the stage's local tasks")
                    .tags(topicTags).register(registry);
            Gauge.builder("parsley.topic.records.held.age.max", streams,
                    s -> aggregate(s, stage.name(), topic, MetricNames.RECORDS_HELD_AGE_MAX_MS, Math::max))
                    .description("Milliseconds the oldest record held on the topic's channels has been held")
                    .tags(topicTags).register(registry);
            if (parsley.deadLetterTopic().isPresent()) {
                sourceCounter(registry, "parsley.records.dead.lettered", "Records of the topic written to the"
                        + " dead-letter topic instead of failing the stage", tags, stage, topic,
                        MetricNames.RECORDS_DEAD_LETTERED_TOTAL);
            }
        }
    }

    /** A counter of one stage and source topic, tagged with the topic, from the per-topic Streams metric. */
    private void sourceCounter(MeterRegistry registry, String meter, String description, Tags tags, Stage stage,
            String topic, String metric) {
        FunctionCounter.builder(meter, streams, s -> aggregate(s, stage.name(), topic, metric, Double::sum))
                .description(description).tags(tags.and("topic", topic)).register(registry);
    }

    /** Registers new Streams metrics whenever the application becomes RUNNING (threads and tasks exist then). */
    @Override
    public void onChange(KafkaStreams.State newState, KafkaStreams.State oldState) {
        if (newState == KafkaStreams.State.RUNNING) {
            refresh();
        }
    }

    /** Registers Kafka Streams client and thread metrics, and consumer lag, that appeared since the last call. */
    public synchronized void refresh() {
        MeterRegistry r = registry;
        if (r == null) {
            return;
        }
        for (MetricName name : streams.metrics().keySet()) {
            String meter = meterName(name);
            if (meter != null && bound.add(name) && streams.metrics().get(name).metricValue() instanceof Number) {
                Gauge.builder(meter, streams, s -> value(s.metrics().get(name)))
                        .description(name.description())
                        .tags(Tags.of("application", parsley.applicationId()))
                        .tags(tagsOf(name.tags()))
                        .register(r);
            }
        }
    }

    /**
     * The meter a Streams metric is exported as, or null: every client- and thread-level metric, and
     * of the embedded consumers only their lag (the client-level maximum; the per-partition series
     * would add a meter per partition, with tag keys Prometheus refuses beside the client's).
     */
    private static @Nullable String meterName(MetricName name) {
        if (CLIENT_GROUPS.contains(name.group())) {
            String prefix = name.group().equals("stream-metrics") ? "kafka.stream." : "kafka.stream.thread.";
            return prefix + name.name().replace('-', '.');
        }
        boolean consumerLag = name.group().equals("consumer-fetch-manager-metrics")
                && name.name().equals("records-lag-max") && name.tags().keySet().equals(Set.of("client-id"));
        return consumerLag ? "kafka.consumer.records.lag.max" : null;
    }

    private void gauge(MeterRegistry registry, String meter, String description, Tags tags, String stage,
            String metric, DoubleBinaryOperator combine) {
        Gauge.builder(meter, streams, s -> aggregate(s, stage, null, metric, combine)).description(description)
                .tags(tags).register(registry);
    }

    private void counter(MeterRegistry registry, String meter, String description, Tags tags, String stage,
            String metric) {
        FunctionCounter.builder(meter, streams, s -> aggregate(s, stage, null, metric, Double::sum))
                .description(description).tags(tags).register(registry);
    }

    private void applicationMax(MeterRegistry registry, String meter, String description, String metric) {
        Gauge.builder(meter, streams, s -> aggregate(s, null, null, metric, Math::max)).description(description)
                .tags(Tags.of("application", parsley.applicationId())).register(registry);
    }

    /**
     * Combines the task-level values of one {@code vc-metrics} metric: of one stage, or of every
     * stage when {@code stage} is null; of one source topic, or the tasks' totals when
     * {@code topic} is null.
     */
    private static double aggregate(CausalStreams streams, @Nullable String stage, @Nullable String topic,
            String metric, DoubleBinaryOperator combine) {
        double out = 0;
        for (Map.Entry<MetricName, ? extends Metric> e : streams.metrics().entrySet()) {
            MetricName n = e.getKey();
            if (n.group().equals(MetricNames.GROUP) && n.name().equals(metric)
                    && (stage == null || stage.equals(n.tags().get(MetricNames.STAGE_TAG)))
                    && (topic == null ? !n.tags().containsKey(MetricNames.TOPIC_TAG)
                            : topic.equals(n.tags().get(MetricNames.TOPIC_TAG)))) {
                double v = value(e.getValue());
                if (!Double.isNaN(v)) {
                    out = combine.applyAsDouble(out, v);
                }
            }
        }
        return out;
    }

    private static double value(@Nullable Metric metric) {
        if (metric == null) {
            return Double.NaN;
        }
        Object v = metric.metricValue();
        return v instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static Tags tagsOf(Map<String, String> tags) {
        Tags out = Tags.empty();
        for (Map.Entry<String, String> t : tags.entrySet()) {
            out = out.and(t.getKey(), t.getValue());
        }
        return out;
    }
}
