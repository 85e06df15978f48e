package io.github.tobyjamesclements.parsley;

import java.util.UUID;

/**
 * The shape of a clock's encoding in wire format version 3 (docs/wire-format.md): where its
 * topic groups and sequence channels begin and end, each topic group's header, and the exact
 * size in bytes, so the encoder writes into an array of the right length and never copies; and an
 * upper bound of that size from the claim counts alone, for the send path's reused buffer.
 *
 * <p>Groups are found by scanning the claims, which are sorted by topic and channel, rather than
 * recorded in arrays: a stamp has a handful of claims, and the encoder runs once per send, where
 * every array it does not allocate counts.
 */
final class ClockLayout {

    private static final int TOPIC_ID_BYTES = 16;
    private static final int STAGE_ID_BYTES = 8;
    /**
     * The longest varints of a value of at most 35 bits (a count, a partition, or a stamp's head: a
     * 32-bit tag and a flag) and of 63.
     */
    private static final int MAX_VARINT_35 = 5;
    private static final int MAX_VARINT_63 = 9;

    private ClockLayout() {
    }

    /** The encoded length in bytes, version byte and sender tag included ({@code sender} null: untagged). */
    static int size(VectorClock clock, UUID sender, long seq) {
        long tag = sender == null ? 0 : sender.getLeastSignificantBits() + 1;
        int bytes = 1 + varintSize(tag << 2) + (sender == null ? 0 : STAGE_ID_BYTES + varintSize(seq));
        for (int from = 0, to; from < clock.offsetCount(); from = to) {
            to = topicEnd(clock, from);
            long shape = shape(clock, from, to);
            boolean partitions = sparse(shape);
            bytes += TOPIC_ID_BYTES + varintSize(shape << 1);
            for (int i = from; i < to; i++) {
                bytes += varintSize(offsetValue(clock, from, i)) + (partitions ? varintSize(clock.channel(i).partition()) : 0);
            }
        }
        return bytes + seqBytes(clock);
    }

    /**
     * An upper bound of the encoded length, from the claim counts alone: every claim as if it began
     * its own group and every varint at its longest. A scratch writer needs only room, not the
     * exact length, and this costs nothing per claim, where {@link #size} walks them all.
     */
    static int bound(VectorClock clock) {
        int header = 1 + MAX_VARINT_35 + STAGE_ID_BYTES + MAX_VARINT_63 + MAX_VARINT_63;
        int perOffset = TOPIC_ID_BYTES + MAX_VARINT_35 + MAX_VARINT_35 + MAX_VARINT_63;
        int perSeq = TOPIC_ID_BYTES + MAX_VARINT_35 + MAX_VARINT_35 + STAGE_ID_BYTES + MAX_VARINT_35 + MAX_VARINT_63;
        return header + clock.offsetCount() * perOffset + clock.seqCount() * perSeq;
    }

    /**
     * The shape of the topic group of claims {@code [from, to)}, as its header names it: dense
     * ({@code n << 1 | 1}) when its partitions are exactly 0 to n-1, else single
     * ({@code partition << 2 | 2}) when it has one entry, else sparse ({@code n << 2}).
     */
    static long shape(VectorClock clock, int from, int to) {
        int entries = to - from;
        if (dense(clock, from, to)) {
            return ((long) entries << 1) | 1;
        }
        return entries == 1 ? ((long) clock.channel(from).partition() << 2) | 2 : (long) entries << 2;
    }

    /** Whether a group of this shape writes a partition number before each offset. */
    static boolean sparse(long shape) {
        return (shape & 3) == 0;
    }

    /** The index after the last offset claim on the topic of claim {@code from}: the end of its group. */
    static int topicEnd(VectorClock clock, int from) {
        UUID topic = clock.channel(from).topicId();
        int to = from + 1;
        while (to < clock.offsetCount() && clock.channel(to).topicId().equals(topic)) {
            to++;
        }
        return to;
    }

    /** Whether the group of claims {@code [from, to)} names exactly partitions 0 to n-1, in order. */
    private static boolean dense(VectorClock clock, int from, int to) {
        for (int i = from; i < to; i++) {
            if (clock.channel(i).partition() != i - from) {
                return false;
            }
        }
        return true;
    }

    /** The index after the last sequence claim on the channel of claim {@code from}. */
    static int seqChannelEnd(VectorClock clock, int from) {
        Channel channel = clock.seqKey(from).channel();
        int to = from + 1;
        while (to < clock.seqCount() && clock.seqKey(to).channel().equals(channel)) {
            to++;
        }
        return to;
    }

    /** The index after the last claim, before {@code to}, of the stage of claim {@code from}: the end of its stage group. */
    static int stageEnd(VectorClock clock, int from, int to) {
        long stage = clock.seqKey(from).sender().getMostSignificantBits();
        int end = from + 1;
        while (end < to && clock.seqKey(end).sender().getMostSignificantBits() == stage) {
            end++;
        }
        return end;
    }

    /**
     * The shape of the stage group of claims {@code [from, to)}: dense ({@code n << 1 | 1}) when its
     * tasks are exactly 0 to n-1, else sparse ({@code n << 1}).
     */
    static long stageShape(VectorClock clock, int from, int to) {
        boolean dense = true;
        for (int i = from; i < to && dense; i++) {
            dense = clock.seqKey(i).sender().getLeastSignificantBits() == i - from;
        }
        return ((long) (to - from) << 1) | (dense ? 1 : 0);
    }

    /** A sequence channel group's partition field: 0 for a whole-topic claim, else the partition plus one. */
    static long seqPartitionField(Channel c) {
        return c.isWholeTopic() ? 0 : (long) c.partition() + 1;
    }

    /** The varint a stage group beginning at claim {@code from} writes for its claim {@code i}, as {@link #offsetValue} does. */
    static long seqValue(VectorClock clock, int from, int i) {
        return i == from ? clock.seqAt(i) : offsetDelta(clock.seqAt(i - 1), clock.seqAt(i));
    }

    private static int seqBytes(VectorClock clock) {
        int bytes = 0;
        for (int from = 0, to; from < clock.seqCount(); from = to) {
            to = seqChannelEnd(clock, from);
            bytes += TOPIC_ID_BYTES + varintSize(seqPartitionField(clock.seqKey(from).channel()) << 1);
            for (int sFrom = from, sTo; sFrom < to; sFrom = sTo) {
                sTo = stageEnd(clock, sFrom, to);
                long shape = stageShape(clock, sFrom, sTo);
                bytes += STAGE_ID_BYTES + varintSize(shape << 1);
                for (int i = sFrom; i < sTo; i++) {
                    bytes += varintSize(seqValue(clock, sFrom, i))
                            + ((shape & 1) == 0 ? varintSize(clock.seqKey(i).sender().getLeastSignificantBits()) : 0);
                }
            }
        }
        return bytes;
    }

    /**
     * The varint a topic group beginning at claim {@code from} writes for its claim {@code i}: the
     * first watermark as is, each later one as its {@link #offsetDelta} from the one before.
     */
    static long offsetValue(VectorClock clock, int from, int i) {
        return i == from ? clock.offsetAt(i) : offsetDelta(clock.offsetAt(i - 1), clock.offsetAt(i));
    }

    /**
     * How a topic group writes a watermark after its first: the zigzag of {@code offset - previous}
     * taken in 63 bits (the difference modulo 2^63, read as a signed 63-bit number), so a small step
     * either way is a small varint and every value stays within the format's 63 bits. Both
     * arguments are {@code >= 0}; so is the result.
     */
    static long offsetDelta(long previous, long offset) {
        long signed = ((offset - previous) << 1) >> 1;
        return (signed << 1) ^ (signed >> 63);
    }

    /**
     * The inverse of {@link #offsetDelta}: the watermark {@code delta} names after {@code previous}.
     * Every 63-bit {@code delta} names exactly one watermark, so a group's bytes still have one
     * reading and nothing here can fail.
     */
    static long offsetAfter(long previous, long delta) {
        return (previous + ((delta >>> 1) ^ -(delta & 1))) & Long.MAX_VALUE;
    }

    /** The length of an unsigned LEB128 varint of a value {@code >= 0}. */
    static int varintSize(long value) {
        return Math.max(1, (Long.SIZE - Long.numberOfLeadingZeros(value) + 6) / 7);
    }
}
