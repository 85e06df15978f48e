package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * Assembles one Kafka Streams topology from the stages of an application (protocol.md §12.2,
 * §12.7): one raw-bytes source per distinct source topic and per tick topic, and per stage one
 * {@link CausalProcessor} fed by the sources of its topics, its protocol and fold stores, one
 * raw-bytes sink per sink topic and, with a dead-letter topic, one unstamped raw-bytes sink to it.
 *
 * <p>Kafka Streams lets a topic feed only one source node, so stages that share a topic (fan-out)
 * are children of one source node: they land in one sub-topology and share its tasks, each task's
 * transaction committing both stages' steps (docs/protocol-decisions.md, "Fan-out").
 */
final class Assembly {

    private Assembly() {
    }

    static String protocolStore(Stage stage) {
        return stage.name() + "-state";
    }

    static String foldStore(Stage stage) {
        return stage.name() + "-fold";
    }

    static String sourceName(String topic) {
        return "vc-source-" + topic;
    }

    static String processorName(Stage stage) {
        return "vc-" + stage.name() + "-processor";
    }

    /** {@code deadLetters} is null for an application without a dead-letter topic. */
    static Topology build(String applicationId, List<Stage> stages, TopicCatalog catalog, HoldBoard board,
            DeadLetterBoard deadLetters) {
        return build(applicationId, stages, catalog, board, deadLetters, new ReadViews());
    }

    /** The topology whose stateful tasks add their read views to {@code views}. */
    static Topology build(String applicationId, List<Stage> stages, TopicCatalog catalog, HoldBoard board,
            DeadLetterBoard deadLetters, ReadViews views) {
        StampBudget.check(applicationId, stages, catalog);
        Topology topology = new Topology();
        Set<String> sourced = new HashSet<>();
        for (Stage stage : stages) {
            List<String> sources = new ArrayList<>(stage.sources().keySet());
            String tickTopic = stage.tickTopic(applicationId);
            stage.ticks().ifPresent(t -> {
                checkTickPartitions(stage, tickTopic, catalog);
                sources.add(tickTopic);
            });
            for (String topic : sources) {
                // added as the first stage reading a topic comes, so an application without fan-out
                // keeps the node order, and the sub-topology numbering, it had with a source per stage
                if (sourced.add(topic)) {
                    topology.addSource(AutoOffsetReset.earliest(), sourceName(topic), new ByteArrayDeserializer(),
                            new ByteArrayDeserializer(), topic);
                }
            }
            String processor = processorName(stage);
            topology.addProcessor(processor, () -> new CausalProcessor(applicationId, stage, catalog, board, deadLetters,
                    views),
                    sources.stream().map(Assembly::sourceName).toArray(String[]::new));
            // Cached: a key written many times between commits costs one RocksDB put and one changelog
            // record per commit, flushed into the same transaction (docs/protocol-decisions.md, "Cached
            // stores"); fold state, keyed by message key, gains the same way for hot keys. The node
            // buffers its own writes and writes them into the protocol store right before each commit
            // (PersistingStore).
            topology.addStateStore(PersistingStore.builder(protocolStore(stage)), processor);
            if (stage.state().isPresent()) {
                topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(foldStore(stage)),
                        Serdes.Bytes(), Serdes.ByteArray()).withCachingEnabled(), processor);
            }
            addSinks(topology, stage, tickTopic, catalog, deadLetters, processor);
        }
        return topology;
    }

    /** The processor's children: its declared sinks, the dead-letter sink and the tick sink. */
    private static void addSinks(Topology topology, Stage stage, String tickTopic, TopicCatalog catalog,
            DeadLetterBoard deadLetters, String processor) {
        int children = 0;
        for (String sink : stage.sinks().keySet()) {
            topology.addSink(StampingDoor.sinkName(stage.name(), sink), sink, new ByteArraySerializer(),
                    new ByteArraySerializer(), StampingDoor.partitioner(sink, catalog.partitions(sink)), processor);
            children++;
        }
        if (deadLetters != null) {
            // no partitioner: a dead letter names no partition, the producer's own choice is as good as any
            topology.addSink(PoisonRecords.sinkName(stage.name()), deadLetters.topic(), new ByteArraySerializer(),
                    new ByteArraySerializer(), processor);
            children++;
        }
        if (stage.ticks().isPresent() && !stage.sinks().containsKey(tickTopic)) {
            topology.addSink(StampingDoor.sinkName(stage.name(), tickTopic), tickTopic, new ByteArraySerializer(),
                    new ByteArraySerializer(), StampingDoor.tickPartitioner(tickTopic), processor);
            children++;
        }
        if (soleSink(stage, tickTopic, deadLetters != null) && children != 1) {
            throw new IllegalStateException("The stage's door would forward to every child, but it has " + children
                    + "; stage=" + stage.name() + "; a record would reach the wrong sinks");
        }
    }

    /**
     * Whether a stage's processor has exactly one child, its one declared sink: the door then
     * forwards to every child, which is that sink, and Kafka Streams does not look the child up by
     * name per record. The sinks {@link #build} adds: each declared sink, the dead-letter sink and
     * the tick sink (unless the tick topic is a declared sink); {@code build} checks that a sole sink
     * is the only child (one child need not be a sole sink: it may be the tick sink alone).
     */
    static boolean soleSink(Stage stage, String tickTopic, boolean deadLetters) {
        return stage.sinks().size() == 1 && !deadLetters
                && (stage.ticks().isEmpty() || stage.sinks().containsKey(tickTopic));
    }

    /**
     * F17: one tick partition per task of the stage, no more (ghost tasks), no fewer (tasks that
     * cannot tick). A stage sharing a sub-topology with a wider stage has tasks beyond its width;
     * they hold no partition of its topics, and its processor stays idle there (no ticks).
     */
    private static void checkTickPartitions(Stage stage, String tickTopic, TopicCatalog catalog) {
        int widest = stage.tickPartitions(catalog::partitions);
        int ticks = catalog.partitions(tickTopic);
        if (ticks != widest) {
            throw new IllegalStateException("Tick topic partition count must equal the stage's widest source; stage="
                    + stage.name() + ", tickTopic=" + tickTopic + ", partitions=" + ticks + ", widest source="
                    + widest + "; recreate the tick topic with " + widest + " partitions");
        }
    }
}
