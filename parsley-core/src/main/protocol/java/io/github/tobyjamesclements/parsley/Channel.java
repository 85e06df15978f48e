package io.github.tobyjamesclements.parsley;

import java.util.Objects;
import java.util.UUID;

/**
 * A causal channel: one partition of one topic incarnation (protocol.md §1.1), or, as the key of a
 * whole-topic sequence claim only (§1.2), every partition of one: {@link #wholeTopic}.
 *
 * <p>The topic is named by its broker-assigned id, never its name, so a topic deleted and
 * recreated under the same name is a different channel. Channels order by topic id under
 * {@link UUID#compareTo} (signed), then by partition; that order drives the wire format and the
 * cascade.
 *
 * <p>A value: equal by topic id and partition. Not a record because it keeps the topic id's two
 * halves beside it: every binary search over a clock's claims compares channels, and comparing
 * the halves in place spares a load of each side's {@link UUID} per comparison.
 */
final class Channel implements Comparable<Channel> {

    /** The partition of a {@link #wholeTopic} key: below every real partition, so it sorts first in its topic. */
    static final int WHOLE_TOPIC = -1;

    private final UUID topicId;
    private final int partition;
    private final long topicHigh;
    private final long topicLow;

    Channel(UUID topicId, int partition) {
        this(topicId, partition, false);
        if (partition < 0) {
            throw new IllegalArgumentException("Channel partition must be >= 0; partition=" + partition);
        }
    }

    private Channel(UUID topicId, int partition, boolean unchecked) {
        Objects.requireNonNull(topicId, "topicId");
        this.topicId = topicId;
        this.partition = partition;
        this.topicHigh = topicId.getMostSignificantBits();
        this.topicLow = topicId.getLeastSignificantBits();
    }

    /**
     * The key of a whole-topic sequence claim on {@code topicId} (protocol.md §1.2): it names every
     * partition of the topic at once. Never a consumed channel, a sink or an offset claim's key.
     */
    static Channel wholeTopic(UUID topicId) {
        return new Channel(topicId, WHOLE_TOPIC, true);
    }

    /** Whether this is a {@link #wholeTopic} key rather than one partition. */
    boolean isWholeTopic() {
        return partition == WHOLE_TOPIC;
    }

    /** Whether this channel is a partition of the same topic as {@code other}. */
    boolean sameTopic(Channel other) {
        return topicHigh == other.topicHigh && topicLow == other.topicLow;
    }

    UUID topicId() {
        return topicId;
    }

    int partition() {
        return partition;
    }

    /** By value, and by reference first: a task's channels are mostly the same few instances, compared per claim. */
    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof Channel other && partition == other.partition && topicHigh == other.topicHigh
                && topicLow == other.topicLow;
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
        int byTopic = topicHigh != other.topicHigh ? Long.compare(topicHigh, other.topicHigh)
                : Long.compare(topicLow, other.topicLow);
        return byTopic != 0 ? byTopic : Integer.compare(partition, other.partition);
    }

    /** The store-key form {@code <uuid>:<partition>} of protocol.md §1.1. */
    String key() {
        return topicId + ":" + (isWholeTopic() ? "*" : Integer.toString(partition));
    }

    /** The short form used in logs and exception messages. */
    @Override
    public String toString() {
        return topicId.toString().substring(0, 8) + ":" + (isWholeTopic() ? "*" : Integer.toString(partition));
    }
}
