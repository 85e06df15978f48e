package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * Assembles one Kafka Streams topology from the stages of an application (protocol.md §12.2,
 * §12.7): per stage a raw-bytes source over its source topics and tick topic, one
 * {@link CausalProcessor}, its protocol and fold stores, one raw-bytes sink per sink topic and,
 * with a dead-letter topic, one unstamped raw-bytes sink to it.
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

    static String sourceName(Stage stage) {
        return "vc-" + stage.name() + "-source";
    }

    static String processorName(Stage stage) {
        return "vc-" + stage.name() + "-processor";
    }

    /** {@code deadLetters} is null for an application without a dead-letter topic. */
    static Topology build(String applicationId, List<Stage> stages, TopicCatalog catalog, HoldBoard board,
            DeadLetterBoard deadLetters) {
        Topology topology = new Topology();
        for (Stage stage : stages) {
            List<String> sources = new ArrayList<>(stage.sources().keySet());
            String tickTopic = stage.tickTopic(applicationId);
            stage.ticks().ifPresent(t -> {
                checkTickPartitions(stage, tickTopic, catalog);
                sources.add(tickTopic);
            });
            String processor = processorName(stage);
            topology.addSource(AutoOffsetReset.earliest(), sourceName(stage), new ByteArrayDeserializer(),
                    new ByteArrayDeserializer(), sources.toArray(String[]::new));
            topology.addProcessor(processor, () -> new CausalProcessor(applicationId, stage, catalog, board, deadLetters),
                    sourceName(stage));
            // Cached: the queue index, frontier and send sequence change on every record; the cache
            // turns those writes into one RocksDB put and one changelog record per key per commit,
            // flushed into the same transaction (docs/protocol-decisions.md, "Cached stores"). Fold
            // state, keyed by message key, gains the same way for hot keys.
            topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(protocolStore(stage)),
                    Serdes.Bytes(), Serdes.ByteArray()).withCachingEnabled(), processor);
            if (stage.state().isPresent()) {
                topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(foldStore(stage)),
                        Serdes.Bytes(), Serdes.ByteArray()).withCachingEnabled(), processor);
            }
            for (String sink : stage.sinks().keySet()) {
                topology.addSink(StampingDoor.sinkName(stage.name(), sink), sink, new ByteArraySerializer(),
                        new ByteArraySerializer(), StampingDoor.partitioner(sink, catalog.partitions(sink)), processor);
            }
            if (deadLetters != null) {
                // no partitioner: a dead letter names no partition, the producer's own choice is as good as any
                topology.addSink(PoisonRecords.sinkName(stage.name()), deadLetters.topic(), new ByteArraySerializer(),
                        new ByteArraySerializer(), processor);
            }
            if (stage.ticks().isPresent() && !stage.sinks().containsKey(tickTopic)) {
                topology.addSink(StampingDoor.sinkName(stage.name(), tickTopic), tickTopic, new ByteArraySerializer(),
                        new ByteArraySerializer(), StampingDoor.tickPartitioner(tickTopic), processor);
            }
        }
        return topology;
    }

    /** F17: one tick partition per task, no more (ghost tasks), no fewer (tasks that cannot tick). */
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
