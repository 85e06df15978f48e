package io.github.tobyjamesclements.parsley;

import java.util.Objects;
import java.util.UUID;

/**
 * A causal channel: one partition of one topic incarnation (protocol.md §1.1).
 *
 * <p>The topic is named by its broker-assigned id, never its name, so a topic deleted and
 * recreated under the same name is a different channel. Channels order by topic id under
 * {@link UUID#compareTo} (signed), then by partition; that order drives the wire format and the
 * cascade.
 */
record Channel(UUID topicId, int partition) implements Comparable<Channel> {

    Channel {
        Objects.requireNonNull(topicId, "topicId");
        if (partition < 0) {
            throw new IllegalArgumentException("Channel partition must be >= 0; partition=" + partition);
        }
    }

    /** By value, and by reference first: a task's channels are mostly the same few instances, compared per claim. */
    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof Channel other && partition == other.partition && topicId.equals(other.topicId);
    }

    @Override
    public int hashCode() {
        return 31 * topicId.hashCode() + partition;
    }

    /** Reference first too: a clock's lookups compare a task's own channel instances by this order. */
    @Override
    public int compareTo(Channel other) {
        if (this == other) {
            return 0;
        }
        int byTopic = topicId.compareTo(other.topicId);
        return byTopic != 0 ? byTopic : Integer.compare(partition, other.partition);
    }

    /** The store-key form {@code <uuid>:<partition>} of protocol.md §1.1. */
    String key() {
        return topicId + ":" + partition;
    }

    /** The short form used in logs and exception messages. */
    @Override
    public String toString() {
        return topicId.toString().substring(0, 8) + ":" + partition;
    }
}
