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
 * @param sequenceBlock how many send sequences one persisted reservation covers (protocol.md
 *     §6.2); any positive value is sound, larger ones write the store less often
 * @param maxStampBytes the stamp's hard bound (§10.2): a larger stamp is coarsened, and fails
 *     closed if still larger
 */
record NodeConfig(String nodeId, UUID senderId, SortedSet<Channel> consumed, SortedSet<UUID> sinkTopics,
        int sequenceBlock, int maxStampBytes) {

    /**
     * The reservation block of production nodes: one store write per 65,536 sends to a channel.
     * Every reservation written adds the protocol store's changelog partition to that commit's
     * transaction (a produce request to wait for, a partition to add, a marker to write); at 1,024
     * a destination taking 10,240 records a second or more reserved in every 100 ms commit, and a
     * copy stage's commits took longer (docs/design-record/performance-history.md, the fourteenth pass). The
     * price is a larger gap at each restart, so a long-lived, rarely sending stage's sequences run a
     * varint byte or two longer.
     */
    static final int SEQUENCE_BLOCK = 1 << 16;

    NodeConfig {
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(senderId, "senderId");
        consumed = Collections.unmodifiableSortedSet(new TreeSet<>(consumed));
        sinkTopics = Collections.unmodifiableSortedSet(new TreeSet<>(sinkTopics));
        if (sequenceBlock < 1) {
            throw new IllegalArgumentException("Send sequence block must be positive; node=" + nodeId
                    + ", sequenceBlock=" + sequenceBlock);
        }
        if (maxStampBytes < 1) {
            throw new IllegalArgumentException("Stamp bound must be positive; node=" + nodeId
                    + ", maxStampBytes=" + maxStampBytes);
        }
    }

    /**
     * The topic of a send's {@code destination}, when this node declares it a sink.
     *
     * @throws IllegalStateException for a send to a topic the node did not declare
     */
    UUID requireSink(Channel destination) {
        if (!sinkTopics.contains(destination.topicId())) {
            throw new IllegalStateException("Send to undeclared sink topic; node=" + nodeId
                    + ", destination=" + destination + ", declared sinks=" + sinkTopics);
        }
        return destination.topicId();
    }

    /** A node reserving send sequences in blocks of {@link #SEQUENCE_BLOCK}, its stamps unbounded. */
    NodeConfig(String nodeId, UUID senderId, SortedSet<Channel> consumed, SortedSet<UUID> sinkTopics) {
        this(nodeId, senderId, consumed, sinkTopics, SEQUENCE_BLOCK);
    }

    /** A node whose stamps are unbounded: rigs and the simulator's worlds that do not test the bound. */
    NodeConfig(String nodeId, UUID senderId, SortedSet<Channel> consumed, SortedSet<UUID> sinkTopics,
            int sequenceBlock) {
        this(nodeId, senderId, consumed, sinkTopics, sequenceBlock, Integer.MAX_VALUE);
    }
}
