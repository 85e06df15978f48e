package io.github.tobyjamesclements.parsley;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.UUID;

/**
 * The byte sink of {@link ClockCodec}, unsynchronised, unlike {@code ByteArrayOutputStream}, whose
 * every byte takes a lock. Either an array of the exact encoded length ({@link ClockLayout#size}),
 * handed out as written (writing past the length, or handing out a partly written array, is a
 * layout bug and throws), or a scratch buffer its single-threaded owner reuses from encoding to
 * encoding ({@link #scratch}), sized to a bound and copied out at the written length.
 */
final class ClockWriter {

    private static final VarHandle BIG_ENDIAN_LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.BIG_ENDIAN);

    private byte[] buf;
    private int count;

    ClockWriter(int size) {
        buf = new byte[size];
    }

    /** A reusable writer for one thread: {@link #reset} before each encoding, {@link #copy} after it. */
    static ClockWriter scratch() {
        return new ClockWriter(128);
    }

    /** Starts a new encoding of at most {@code bound} bytes ({@link ClockLayout#bound}), replacing a buffer too short for it. */
    void reset(int bound) {
        if (buf.length < bound) {
            buf = new byte[bound];
        }
        count = 0;
    }

    void write(int b) {
        buf[count++] = (byte) b;
    }

    /** An unsigned LEB128 varint of a value {@code >= 0}. */
    void varint(long value) {
        long v = value;
        while ((v & ~0x7FL) != 0) {
            write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        write((int) v);
    }

    void uuid(UUID id) {
        long64(id.getMostSignificantBits());
        long64(id.getLeastSignificantBits());
    }

    /** Eight bytes, big-endian, in one store: topic ids and stage ids are a third of a typical stamp. */
    void long64(long v) {
        BIG_ENDIAN_LONGS.set(buf, count, v);
        count += Long.BYTES;
    }

    /** A copy of the bytes written since the last {@link #reset}: a scratch writer's result. */
    byte[] copy() {
        return Arrays.copyOf(buf, count);
    }

    /** The written bytes, which must fill the array: the layout's size was exact. */
    byte[] toByteArray() {
        if (count != buf.length) {
            throw new IllegalStateException("Clock encoding wrote " + count + " of " + buf.length + " laid-out bytes");
        }
        return buf;
    }
}
