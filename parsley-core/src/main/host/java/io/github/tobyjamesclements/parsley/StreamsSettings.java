package io.github.tobyjamesclements.parsley;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.errors.DefaultProductionExceptionHandler;
import org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler;

/**
 * The Kafka Streams settings an application runs under: the ones {@link Parsley#streams} refuses
 * to let a configuration change, the ones it forces, and the one it defaults. Kept apart from
 * {@link Parsley} so that the composition and the settings it runs with are read in one place each.
 */
final class StreamsSettings {

    private static final String FAILING_PROCESSING_HANDLER = LogAndFailProcessingExceptionHandler.class.getName();
    private static final String FAILING_PRODUCTION_HANDLER = DefaultProductionExceptionHandler.class.getName();

    private StreamsSettings() {
    }

    /** The settings {@link #enforce} refuses to see changed, each with the only value it accepts. */
    static Map<String, String> enforced(String applicationId) {
        Map<String, String> enforced = new LinkedHashMap<>();
        enforced.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        enforced.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, FAILING_PROCESSING_HANDLER);
        enforced.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, FAILING_PRODUCTION_HANDLER);
        enforced.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        return Collections.unmodifiableMap(enforced);
    }

    /**
     * A copy of {@code properties} for the startup cluster check: the application id checked and
     * set, nothing else changed.
     */
    static Properties forCheck(Properties properties, String applicationId) {
        Properties p = new Properties();
        p.putAll(Objects.requireNonNull(properties, "properties"));
        requireOwnApplicationId(p, applicationId);
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        return p;
    }

    /**
     * A copy of {@code properties} that Kafka Streams may run a causal application with: refuses
     * a setting that could commit a step without its outputs or skip a failed one, then forces
     * exactly-once, {@code read_committed} consumers, the application id and leaving the group on
     * close.
     */
    static Properties enforce(Properties properties, String applicationId) {
        Properties p = new Properties();
        p.putAll(Objects.requireNonNull(properties, "properties"));
        Object guarantee = p.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG);
        if (guarantee != null && !StreamsConfig.EXACTLY_ONCE_V2.equals(guarantee.toString())) {
            throw new IllegalArgumentException("Causal delivery requires processing.guarantee=exactly_once_v2;"
                    + " configured=" + guarantee + "; remove the setting or set it to exactly_once_v2: hold queues,"
                    + " clocks, state, consumed offsets and outputs must commit atomically");
        }
        requireFailingHandler(p, StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
                FAILING_PROCESSING_HANDLER, "Causal delivery requires a processing exception to fail"
                        + " the task", "a step that throws must abort, or the records it released would be skipped"
                        + " and order lost");
        requireFailingHandler(p, StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG,
                FAILING_PRODUCTION_HANDLER, "Causal delivery requires a failed send to fail the task",
                "a handler that continues would commit the step without the output, and its consumers would never"
                        + " see it");
        requireOwnApplicationId(p, applicationId);
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.ISOLATION_LEVEL_CONFIG), "read_committed");
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.ISOLATION_LEVEL_CONFIG), "read_committed");
        GroupLeave.configure(p);
        return p;
    }

    /**
     * {@code properties} with {@code max.task.idle.ms=-1} where they set no value of their own and
     * every sub-topology of {@code topology} reads one topic, so that every task consumes one
     * partition. Kafka Streams' idling waits, in a task with several input partitions, for an empty
     * one that may still have data, so that records go in timestamp order; a task of one partition
     * never waits, yet with any value but -1 Streams checks, allocating a set, before every record it
     * processes. A stage reading several topics keeps Kafka Streams' default: there the wait lets a
     * cause in before its effect. With -1 a two-topic stage held more records and ran no faster
     * (docs/design-record/performance-history.md, issue 10's twenty-fourth pass).
     */
    static Properties withTaskIdle(Properties properties, Topology topology) {
        if (properties.containsKey(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG) || !onePartitionPerTask(topology)) {
            return properties;
        }
        Properties p = new Properties();
        p.putAll(properties);
        p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, String.valueOf(StreamsConfig.MAX_TASK_IDLE_MS_DISABLED));
        return p;
    }

    /** Whether every sub-topology reads exactly one topic (a pattern source counts as several). */
    static boolean onePartitionPerTask(Topology topology) {
        for (TopologyDescription.Subtopology sub : topology.describe().subtopologies()) {
            int topics = 0;
            for (TopologyDescription.Node node : sub.nodes()) {
                if (node instanceof TopologyDescription.Source source) {
                    topics += source.topicSet() == null ? 2 : source.topicSet().size();
                }
            }
            if (topics != 1) {
                return false;
            }
        }
        return true;
    }

    private static void requireOwnApplicationId(Properties p, String applicationId) {
        Object id = p.get(StreamsConfig.APPLICATION_ID_CONFIG);
        if (id != null && !applicationId.equals(id.toString())) {
            throw new IllegalArgumentException("application.id differs from the application's id; configured=" + id
                    + ", applicationId=" + applicationId + "; remove the setting or make them equal");
        }
    }

    /** Refuses an exception handler other than the one Kafka ships that fails the task. */
    private static void requireFailingHandler(Properties p, String setting, String failing, String requirement,
            String why) {
        Object handler = p.get(setting);
        String name = handler instanceof Class<?> c ? c.getName() : String.valueOf(handler);
        if (handler != null && !failing.equals(name)) {
            throw new IllegalArgumentException(requirement + "; " + setting + "=" + name + "; remove the setting: "
                    + why);
        }
    }
}
