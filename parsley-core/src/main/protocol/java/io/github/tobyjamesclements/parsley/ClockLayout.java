package io.github.tobyjamesclements.parsley;

import java.util.UUID;

/**
 * The shape of a clock's encoding in wire format version 2 (docs/wire-format.md), from one pass
 * over its claims: the offset claims' topic groups, the sequence claims' channel groups, and the
 * exact size in bytes, so the encoder writes into an array of the right length and never copies.
 */
final class ClockLayout {

    private static final int TOPIC_ID_BYTES = 16;
    private static final int STAGE_ID_BYTES = 8;
    /** The sequence groups of a clock without sequence claims, as most stamps are: shared, never written. */
    private static final int[] NO_GROUPS = {};

    /** Per topic, in order: its number of offset entries, negated when dense (partitions exactly 0..n-1). */
    final int[] topicGroups;
    /** Per sequence channel, in order: its number of senders; empty without sequence claims. */
    final int[] seqGroups;
    /** The encoded length in bytes, version byte and sender tag included. */
    final int size;

    ClockLayout(VectorClock clock, UUID sender, long seq) {
        int bytes = 1 + (sender == null ? 1 : varintSize(sender.getLeastSignificantBits() + 1) + STAGE_ID_BYTES + varintSize(seq));
        this.topicGroups = topicGroups(clock);
        bytes += varintSize(((long) topicGroups.length << 1) | 1);
        for (int g = 0, at = 0; g < topicGroups.length; g++) {
            int entries = Math.abs(topicGroups[g]);
            bytes += TOPIC_ID_BYTES + varintSize(((long) entries << 1) | 1);
            for (int i = at; i < at + entries; i++) {
                bytes += varintSize(clock.offsetAt(i)) + (topicGroups[g] < 0 ? 0 : varintSize(clock.channel(i).partition()));
            }
            at += entries;
        }
        this.seqGroups = seqGroups(clock);
        this.size = bytes + seqBytes(clock, seqGroups);
    }

    /** Two passes over the claims, so that the only array is the answer: one to count topics, one to size them. */
    private static int[] topicGroups(VectorClock clock) {
        int n = 0;
        for (int i = 0; i < clock.offsetCount(); i++) {
            n += i == 0 || !clock.channel(i).topicId().equals(clock.channel(i - 1).topicId()) ? 1 : 0;
        }
        int[] groups = new int[n];
        int g = -1;
        boolean sparse = false;
        for (int i = 0; i < clock.offsetCount(); i++) {
            if (i == 0 || !clock.channel(i).topicId().equals(clock.channel(i - 1).topicId())) {
                seal(groups, g, sparse);
                g++;
                sparse = false;
            }
            sparse |= clock.channel(i).partition() != groups[g];
            groups[g]++;
        }
        seal(groups, g, sparse);
        return groups;
    }

    /** Negates a finished group's count when it is dense (its partitions are exactly 0..n-1). */
    private static void seal(int[] groups, int g, boolean sparse) {
        if (g >= 0 && !sparse) {
            groups[g] = -groups[g];
        }
    }

    private static int[] seqGroups(VectorClock clock) {
        if (clock.seqCount() == 0) {
            return NO_GROUPS;
        }
        int n = 0;
        for (int i = 0; i < clock.seqCount(); i++) {
            n += i == 0 || !clock.seqKey(i).channel().equals(clock.seqKey(i - 1).channel()) ? 1 : 0;
        }
        int[] sizes = new int[n];
        for (int i = 0, g = -1; i < clock.seqCount(); i++) {
            g += i == 0 || !clock.seqKey(i).channel().equals(clock.seqKey(i - 1).channel()) ? 1 : 0;
            sizes[g]++;
        }
        return sizes;
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
