package io.github.tobyjamesclements.parsley;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The static declaration of one node (protocol.md §2): the channels it consumes and the topics
 * it may send to. Both sets are kept sorted, so every iteration over them is deterministic.
 *
 * @param nodeId a name for logs, for example {@code <stage>-task-<taskId>}
 * @param senderId the stable sender identity
 */
record NodeConfig(String nodeId, UUID senderId, SortedSet<Channel> consumed, SortedSet<UUID> sinkTopics) {

    NodeConfig {
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(senderId, "senderId");
        consumed = Collections.unmodifiableSortedSet(new TreeSet<>(consumed));
        sinkTopics = Collections.unmodifiableSortedSet(new TreeSet<>(sinkTopics));
    }
}
