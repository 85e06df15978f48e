package io.github.tobyjamesclements.parsley;

import java.util.Arrays;
import java.util.UUID;

/**
 * The shape of a clock's encoding in wire format version 2 (docs/wire-format.md), from one pass
 * over its claims: the offset claims' topic groups, the sequence claims' channel groups, and the
 * exact size in bytes, so the encoder writes into an array of the right length and never copies.
 */
final class ClockLayout {

    private static final int TOPIC_ID_BYTES = 16;
    private static final int STAGE_ID_BYTES = 8;

    /** Per topic, in order: its number of offset entries, negated when dense (partitions exactly 0..n-1). */
    final int[] topicGroups;
    /** Per sequence channel, in order: its number of senders; empty without sequence claims. */
    final int[] seqGroups;
    /** The encoded length in bytes, version byte and sender tag included. */
    final int size;

    ClockLayout(VectorClock clock, UUID sender, long seq) {
        int[] sizes = new int[clock.offsetCount()];
        boolean[] sparse = new boolean[sizes.length];
        int bytes = 1 + (sender == null ? 1 : varintSize(sender.getLeastSignificantBits() + 1) + STAGE_ID_BYTES + varintSize(seq));
        int partitionBytes = 0;
        int n = 0;
        UUID last = null;
        for (int i = 0; i < clock.offsetCount(); i++) {
            Channel c = clock.channel(i);
            if (!c.topicId().equals(last)) {
                n++;
                last = c.topicId();
            }
            sparse[n - 1] |= c.partition() != sizes[n - 1];
            sizes[n - 1]++;
            bytes += varintSize(clock.offsetAt(i));
        }
        int[] groups = new int[n];
        for (int g = 0, at = 0; g < n; at += sizes[g], g++) {
            groups[g] = sparse[g] ? sizes[g] : -sizes[g];
            bytes += TOPIC_ID_BYTES + varintSize(((long) sizes[g] << 1) | 1);
            partitionBytes += sparse[g] ? partitionBytes(clock, at, sizes[g]) : 0;
        }
        bytes += partitionBytes + varintSize(((long) n << 1) | 1);
        this.topicGroups = groups;
        this.seqGroups = seqGroups(clock);
        this.size = bytes + seqBytes(clock, seqGroups);
    }

    private static int partitionBytes(VectorClock clock, int from, int count) {
        int bytes = 0;
        for (int i = from; i < from + count; i++) {
            bytes += varintSize(clock.channel(i).partition());
        }
        return bytes;
    }

    private static int[] seqGroups(VectorClock clock) {
        int[] sizes = new int[clock.seqCount()];
        int n = 0;
        Channel last = null;
        for (int i = 0; i < clock.seqCount(); i++) {
            Channel c = clock.seqKey(i).channel();
            if (!c.equals(last)) {
                n++;
                last = c;
            }
            sizes[n - 1]++;
        }
        return n == sizes.length ? sizes : Arrays.copyOf(sizes, n);
    }

    private static int seqBytes(VectorClock clock, int[] groups) {
        if (groups.length == 0) {
            return 0;
        }
        int bytes = varintSize(groups.length);
        for (int g = 0, at = 0; g < groups.length; at += groups[g], g++) {
            bytes += TOPIC_ID_BYTES + varintSize(clock.seqKey(at).channel().partition()) + varintSize(groups[g]);
        }
        for (int i = 0; i < clock.seqCount(); i++) {
            bytes += STAGE_ID_BYTES + varintSize(clock.seqKey(i).sender().getLeastSignificantBits()) + varintSize(clock.seqAt(i));
        }
        return bytes;
    }

    /** The length of an unsigned LEB128 varint of a value {@code >= 0}. */
    static int varintSize(long value) {
        return Math.max(1, (Long.SIZE - Long.numberOfLeadingZeros(value) + 6) / 7);
    }
}
