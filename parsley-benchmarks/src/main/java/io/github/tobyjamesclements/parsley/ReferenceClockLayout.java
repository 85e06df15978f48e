package io.github.tobyjamesclements.parsley;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.UUID;

/**
 * The fixed-width clock layout of the reference implementation (protocol.md §10.1), kept only as
 * the baseline the benchmarks measure Parsley's wire format against. Never used by production
 * code.
 *
 * <pre>
 * u8   version = 0x01
 * i32  n;  n x { i64 topic msb, i64 topic lsb, i32 partition, i64 offset }                      (28 B)
 * i32  m;  m x { i64 topic msb, i64 topic lsb, i32 partition, i64 sender msb, i64 sender lsb,
 *                i64 seq }                                                                      (44 B)
 * </pre>
 *
 * <p>The reader follows the reference reader rules of §10.1: unknown version, negative counts or
 * values, a length other than {@code 9 + 28n + 44m} and any underflow are corrupt; sort order is
 * not checked. One deliberate difference: a duplicate key is max-merged (the only way
 * {@link VectorClock} accepts entries) where the reference overwrites; the benchmarks never
 * produce duplicates.
 */
final class ReferenceClockLayout {

    static final byte VERSION = 0x01;
    static final int HEADER_BYTES = 9;
    static final int OFFSET_ENTRY_BYTES = 28;
    static final int SEQ_ENTRY_BYTES = 44;

    private ReferenceClockLayout() {
    }

    /** The encoded size of a clock with {@code n} offset entries and {@code m} sequence entries. */
    static int size(int n, int m) {
        return HEADER_BYTES + OFFSET_ENTRY_BYTES * n + SEQ_ENTRY_BYTES * m;
    }

    static byte[] encode(VectorClock clock) {
        Map<Channel, Long> offsets = clock.offsets();
        Map<SeqKey, Long> seqs = clock.seqs();
        ByteBuffer b = ByteBuffer.allocate(size(offsets.size(), seqs.size()));
        b.put(VERSION);
        b.putInt(offsets.size());
        for (Map.Entry<Channel, Long> e : offsets.entrySet()) {
            putChannel(b, e.getKey());
            b.putLong(e.getValue());
        }
        b.putInt(seqs.size());
        for (Map.Entry<SeqKey, Long> e : seqs.entrySet()) {
            putChannel(b, e.getKey().channel());
            b.putLong(e.getKey().sender().getMostSignificantBits());
            b.putLong(e.getKey().sender().getLeastSignificantBits());
            b.putLong(e.getValue());
        }
        return b.array();
    }

    static VectorClock decode(byte[] bytes) {
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            byte version = b.get();
            if (version != VERSION) {
                throw new CorruptClockException("unknown clock version " + version);
            }
            int n = nonNegative(b.getInt(), "offset entry count");
            if (bytes.length < size(0, 0) + (long) OFFSET_ENTRY_BYTES * n) {
                throw new CorruptClockException("clock truncated: " + bytes.length + " bytes for " + n + " offset entries");
            }
            VectorClock clock = new VectorClock();
            for (int i = 0; i < n; i++) {
                Channel c = channel(b);
                clock.advanceTo(c, nonNegative(b.getLong(), "offset"));
            }
            int m = nonNegative(b.getInt(), "sequence entry count");
            long expected = size(0, 0) + (long) OFFSET_ENTRY_BYTES * n + (long) SEQ_ENTRY_BYTES * m;
            if (bytes.length != expected) {
                throw new CorruptClockException("clock length " + bytes.length + " != " + expected);
            }
            for (int i = 0; i < m; i++) {
                Channel c = channel(b);
                SeqKey k = new SeqKey(c, new UUID(b.getLong(), b.getLong()));
                clock.advanceSeq(k, nonNegative(b.getLong(), "seq"));
            }
            return clock;
        } catch (CorruptClockException e) {
            throw e;
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new CorruptClockException("undecodable clock", e);
        }
    }

    private static void putChannel(ByteBuffer b, Channel c) {
        b.putLong(c.topicId().getMostSignificantBits());
        b.putLong(c.topicId().getLeastSignificantBits());
        b.putInt(c.partition());
    }

    private static Channel channel(ByteBuffer b) {
        UUID topic = new UUID(b.getLong(), b.getLong());
        return new Channel(topic, nonNegative(b.getInt(), "partition"));
    }

    private static int nonNegative(int v, String what) {
        if (v < 0) {
            throw new CorruptClockException("negative " + what + " " + v);
        }
        return v;
    }

    private static long nonNegative(long v, String what) {
        if (v < 0) {
            throw new CorruptClockException("negative " + what + " " + v);
        }
        return v;
    }
}
