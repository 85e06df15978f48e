package io.github.tobyjamesclements.parsley.spring.actuate;

import io.github.tobyjamesclements.parsley.CausalStreams;
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
 * Micrometer meters for Parsley's {@code vc-metrics} (aggregated per stage across local tasks, so
 * tags stay low-cardinality: application and stage, plus topic for per-topic holds) and for the
 * Kafka Streams client- and thread-level metrics. Every meter reads the live metric on each
 * sample; {@link #refresh()} registers Streams metrics that appeared since the last call. With a
 * dead-letter topic, {@code parsley.records.dead.lettered} counts per stage and source topic the
 * records written there.
 */
public class ParsleyMeterBinder implements MeterBinder, KafkaStreams.StateListener {

    private static final String GROUP = "vc-metrics";
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
            Tags tags = Tags.of("application", parsley.applicationId(), "stage", stage.name());
            gauge(registry, "parsley.records.held", "Records held across the stage's local queues", tags,
                    stage.name(), "records-held", Double::sum);
            gauge(registry, "parsley.records.held.age.max", "Milliseconds the longest-gating head has been held",
                    tags, stage.name(), "records-held-age-max-ms", Math::max);
            gauge(registry, "parsley.stamp.offset.entries", "Offset entries of the widest stamp", tags, stage.name(),
                    "stamp-offset-entries", Math::max);
            gauge(registry, "parsley.stamp.sequence.entries", "Unresolved sequence entries of the widest stamp",
                    tags, stage.name(), "stamp-sequence-entries", Math::max);
            gauge(registry, "parsley.topics.unresolvable",
                    "Topics the stage's clocks claim that it cannot resolve (deleted, or not visible to its principal);"
                    + " claims on them are kept", tags, stage.name(), "unresolvable-topics", Math::max);
            counter(registry, "parsley.records.delivered", "Records released through the gate", tags, stage.name(),
                    "records-delivered-total");
            counter(registry, "parsley.replays.skipped", "Records dropped by the replay guard", tags, stage.name(),
                    "replays-skipped-total");
            counter(registry, "parsley.truncation.sweeps.skipped", "Failed truncation sweeps", tags, stage.name(),
                    "truncation-sweeps-skipped-total");
            counter(registry, "parsley.ticks.emitted", "Ticks emitted", tags, stage.name(), "ticks-emitted-total");
            if (parsley.deadLetterTopic().isPresent()) {
                deadLettered(registry, tags, stage);
            }
        }
        refresh();
    }

    /** One counter per source topic (and tick topic) of the stage, from the per-topic Streams metric. */
    private void deadLettered(MeterRegistry registry, Tags tags, Stage stage) {
        List<String> topics = new ArrayList<>(stage.sourceTopics());
        stage.tickInterval().ifPresent(t -> topics.add(parsley.applicationId() + "-" + stage.name() + "-ticks"));
        for (String topic : topics) {
            FunctionCounter.builder("parsley.records.dead.lettered", streams,
                    s -> perTopic(s, stage.name(), topic, "records-dead-lettered-total"))
                    .description("Records of the topic written to the dead-letter topic instead of failing the stage")
                    .tags(tags.and("topic", topic)).register(registry);
        }
    }

    private static double perTopic(CausalStreams streams, String stage, String topic, String metric) {
        double out = 0;
        for (Map.Entry<MetricName, ? extends Metric> e : streams.metrics().entrySet()) {
            MetricName n = e.getKey();
            if (n.group().equals(GROUP) && n.name().equals(metric) && stage.equals(n.tags().get("stage"))
                    && topic.equals(n.tags().get("topic"))) {
                double v = value(e.getValue());
                if (!Double.isNaN(v)) {
                    out += v;
                }
            }
        }
        return out;
    }

    /** Registers new Streams metrics whenever the application becomes RUNNING (threads and tasks exist then). */
    @Override
    public void onChange(KafkaStreams.State newState, KafkaStreams.State oldState) {
        if (newState == KafkaStreams.State.RUNNING) {
            refresh();
        }
    }

    /** Registers Kafka Streams client and thread metrics that appeared since the last call. */
    public synchronized void refresh() {
        MeterRegistry r = registry;
        if (r == null) {
            return;
        }
        for (MetricName name : streams.metrics().keySet()) {
            if (CLIENT_GROUPS.contains(name.group()) && bound.add(name)
                    && streams.metrics().get(name).metricValue() instanceof Number) {
                String prefix = name.group().equals("stream-metrics") ? "kafka.stream." : "kafka.stream.thread.";
                Gauge.builder(prefix + name.name().replace('-', '.'), streams, s -> value(s.metrics().get(name)))
                        .description(name.description())
                        .tags(Tags.of("application", parsley.applicationId()))
                        .tags(tagsOf(name.tags()))
                        .register(r);
            }
        }
    }

    private void gauge(MeterRegistry registry, String meter, String description, Tags tags, String stage,
            String metric, DoubleBinaryOperator combine) {
        Gauge.builder(meter, streams, s -> aggregate(s, stage, metric, combine)).description(description).tags(tags)
                .register(registry);
    }

    private void counter(MeterRegistry registry, String meter, String description, Tags tags, String stage,
            String metric) {
        FunctionCounter.builder(meter, streams, s -> aggregate(s, stage, metric, Double::sum))
                .description(description).tags(tags).register(registry);
    }

    private static double aggregate(CausalStreams streams, String stage, String metric, DoubleBinaryOperator combine) {
        double out = 0;
        for (Map.Entry<MetricName, ? extends Metric> e : streams.metrics().entrySet()) {
            MetricName n = e.getKey();
            if (n.group().equals(GROUP) && n.name().equals(metric) && stage.equals(n.tags().get("stage"))
                    && !n.tags().containsKey("topic")) {
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
