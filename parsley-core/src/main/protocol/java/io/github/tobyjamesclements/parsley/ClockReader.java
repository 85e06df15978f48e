package io.github.tobyjamesclements.parsley;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.UUID;

/**
 * The strict byte source of {@link ClockCodec}: every read checks what is left, and every varint
 * must be minimal and at most 63 bits, so one clock has exactly one encoding.
 */
final class ClockReader {

    private static final VarHandle BIG_ENDIAN_LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.BIG_ENDIAN);

    private final byte[] bytes;
    private int pos;

    ClockReader(byte[] bytes) {
        this.bytes = bytes;
    }

    int position() {
        return pos;
    }

    int remaining() {
        return bytes.length - pos;
    }

    int u8() {
        need(1);
        return bytes[pos++] & 0xFF;
    }

    /** A count whose every element needs at least {@code minBytes}: bounds allocation by input size. */
    long count(int minBytes) {
        return bounded(varint(), minBytes);
    }

    /** Checks a count already read (for instance from a varint that also carries a flag) like {@link #count}. */
    long bounded(long n, int minBytes) {
        if (n > remaining() / minBytes) {
            throw new CorruptClockException("Count " + n + " exceeds the " + remaining() + " remaining bytes");
        }
        return n;
    }

    int partition() {
        return partition(varint());
    }

    /** A partition read as part of another value (a single group's header): at most 31 bits. */
    static int partition(long p) {
        if (p > Integer.MAX_VALUE) {
            throw new CorruptClockException("Partition " + p + " out of range");
        }
        return (int) p;
    }

    long varint() {
        long value = 0;
        for (int shift = 0; ; shift += 7) {
            if (shift == 63) {
                throw new CorruptClockException("Varint exceeds 63 bits at byte " + pos);
            }
            int b = u8();
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                if (b == 0 && shift > 0) {
                    throw new CorruptClockException("Non-minimal varint at byte " + (pos - 1));
                }
                return value;
            }
        }
    }

    /** A sender id in a sequence claim: eight bytes of stage id, then a varint task number. */
    UUID sender() {
        long stage = long64();
        int at = pos;
        long task = varint();
        if (task > Integer.MAX_VALUE) {
            throw new CorruptClockException("Sender task " + task + " out of range at byte " + at);
        }
        return new UUID(stage, task);
    }

    /** Eight bytes, big-endian, in one load. */
    long long64() {
        need(Long.BYTES);
        long v = (long) BIG_ENDIAN_LONGS.get(bytes, pos);
        pos += Long.BYTES;
        return v;
    }

    private void need(int n) {
        if (remaining() < n) {
            throw new CorruptClockException("Clock truncated at byte " + pos + "; needed " + n + " more");
        }
    }
}
