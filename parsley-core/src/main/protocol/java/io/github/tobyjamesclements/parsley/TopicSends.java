package io.github.tobyjamesclements.parsley;

import java.util.UUID;

/**
 * What a stamp needs of this incarnation's sends to one sink topic (protocol.md §6.1), kept as
 * they are issued instead of found again per stamp by walking every partition sent to: how many
 * partitions were sent to, the partition of the latest send and its sequence, and the latest send
 * to any other partition. Sequences rise with every send to the topic, so the highest sequence on a
 * partition other than a stamp's destination is the latest send's, or, when the destination is
 * that partition, the latest send elsewhere. Memory only, from the incarnation's first send.
 *
 * <p>Mutable, owned by the node's {@link NodeState}; one thread.
 */
final class TopicSends {

    final Channel topic;
    private int partitions;
    private Channel latest;
    private long latestSeq = VectorClock.NOTHING;
    private SeqKey latestKey;
    private Channel before;
    private long beforeSeq = VectorClock.NOTHING;
    private SeqKey beforeKey;

    TopicSends(Channel topic) {
        this.topic = topic;
    }

    /** Notes a send of {@code seq} to {@code destination}, the first of this incarnation there when {@code first}. */
    void sent(Channel destination, long seq, boolean first) {
        if (first) {
            partitions++;
        }
        if (!destination.equals(latest)) {
            before = latest;
            beforeSeq = latestSeq;
            beforeKey = latestKey;
            latest = destination;
            latestKey = null;
        }
        latestSeq = seq;
    }

    /**
     * Adds to {@code stamp} the claim on this incarnation's sends to partitions other than
     * {@code destination} (which sent here already when {@code destinationSent}): none, the one
     * partition's, or the whole topic's at the highest of them.
     */
    void claim(VectorClock stamp, Channel destination, boolean destinationSent, SeqKey wholeTopicKey, UUID self) {
        int others = partitions - (destinationSent ? 1 : 0);
        if (others <= 0) {
            return;
        }
        boolean destinationLatest = destination.equals(latest);
        long highest = destinationLatest ? beforeSeq : latestSeq;
        if (others > 1) {
            stamp.advanceSeq(wholeTopicKey, highest);
        } else if (destinationLatest) {
            if (beforeKey == null) {
                beforeKey = new SeqKey(before, self);
            }
            stamp.advanceSeq(beforeKey, highest);
        } else {
            if (latestKey == null) {
                latestKey = new SeqKey(latest, self);
            }
            stamp.advanceSeq(latestKey, highest);
        }
    }
}
