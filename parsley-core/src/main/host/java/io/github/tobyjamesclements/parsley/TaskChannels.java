package io.github.tobyjamesclements.parsley;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;

/**
 * How one task of a stage names its channels: each source topic (and the tick topic) the task
 * has a partition of, resolved through the {@link TopicCatalog} to a {@link Channel}, keyed every
 * way the processor looks them up, and the node's identity and sinks derived from them. Built
 * once per task initialisation and not changed after.
 */
final class TaskChannels {

    /** Topic name to channel, sources in declaration order, then the tick topic. */
    final Map<String, Channel> byTopic = new LinkedHashMap<>();
    /** The captured-position keys of this task's channels, built once: the sweep runs per record. */
    final Map<TopicPartition, Channel> byPartition = new LinkedHashMap<>();
    final Map<Channel, String> topicsByChannel = new TreeMap<>();
    /** The declared source behind each source channel. */
    final Map<Channel, Stage.Source> sources = new HashMap<>();
    final String tickTopic;
    /** The tick channel, or null for a stage without ticks. */
    final Channel tickChannel;

    /** {@link #byTopic} as two arrays, in the same order, for {@link #topicOf}. */
    private final Channel[] channelArray;
    private final String[] topicArray;
    private final String applicationId;
    private final Stage stage;
    private final TopicCatalog catalog;
    private final int partition;

    TaskChannels(String applicationId, Stage stage, TopicCatalog catalog, int partition) {
        this.applicationId = applicationId;
        this.stage = stage;
        this.catalog = catalog;
        this.partition = partition;
        for (Stage.Source s : stage.sources().values()) {
            if (partition < catalog.partitions(s.topic().name())) {
                Channel c = new Channel(catalog.topicId(s.topic().name()), partition);
                byTopic.put(s.topic().name(), c);
                sources.put(c, s);
            }
        }
        tickTopic = stage.tickTopic(applicationId);
        tickChannel = stage.ticks().isPresent() ? new Channel(catalog.topicId(tickTopic), partition) : null;
        if (tickChannel != null) {
            byTopic.put(tickTopic, tickChannel);
        }
        byTopic.forEach((t, c) -> topicsByChannel.put(c, t));
        byTopic.forEach((t, c) -> byPartition.put(new TopicPartition(t, c.partition()), c));
        channelArray = byTopic.values().toArray(new Channel[0]);
        topicArray = byTopic.keySet().toArray(new String[0]);
    }

    /**
     * The topic of one of this task's channels, or null, asked for every delivery: a scan of a few
     * channels, which {@link Channel#equals} compares by reference first (deliveries carry these instances).
     */
    String topicOf(Channel c) {
        for (int i = 0; i < channelArray.length; i++) {
            if (channelArray[i].equals(c)) {
                return topicArray[i];
            }
        }
        return null;
    }

    /**
     * Whether any of the stage's sources has this task's partition. A task of a wider stage that
     * shares a topic (fan-out) may have none: then the stage has no channel, sender or tick there.
     */
    static boolean present(Stage stage, TopicCatalog catalog, int partition) {
        return stage.sources().keySet().stream().anyMatch(t -> partition < catalog.partitions(t));
    }

    /**
     * The node's configuration: consumed channels, sink topics (the tick topic included) and a
     * sender id derived from application, stage and partition, so that it survives restarts.
     */
    NodeConfig nodeConfig(String taskId) {
        SortedSet<UUID> sinks = new TreeSet<>();
        stage.sinks().keySet().forEach(t -> sinks.add(catalog.topicId(t)));
        if (tickChannel != null) {
            sinks.add(tickChannel.topicId());
        }
        UUID sender = Senders.of(applicationId, stage.name(), partition);
        return new NodeConfig(stage.name() + "-task-" + taskId, sender, new TreeSet<>(byTopic.values()), sinks,
                NodeConfig.SEQUENCE_BLOCK, stage.maxStampBytes());
    }

    /** The consumer positions committed with the restored state (§7.1); broker-less wiring has none. */
    Map<Channel, Long> committedPositions(boolean brokerBacked) {
        if (!brokerBacked) {
            return Map.of();
        }
        Map<Channel, Long> out = new HashMap<>();
        PositionCapture.committed(byPartition.keySet()).forEach((tp, offset) -> out.put(byPartition.get(tp), offset));
        return out;
    }
}
