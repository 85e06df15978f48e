package io.github.tobyjamesclements.parsley;

import java.util.Arrays;
import java.util.UUID;

/**
 * The byte sink of {@link ClockCodec}: a growable buffer, unsynchronised, unlike
 * {@code ByteArrayOutputStream}, whose every byte takes a lock.
 */
final class ClockWriter {

    private byte[] buf;
    private int count;

    ClockWriter(int size) {
        buf = new byte[size];
    }

    void write(int b) {
        if (count == buf.length) {
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
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

    /** A sender id: its stage id as eight bytes, then its task number as a varint (wire-format.md). */
    void sender(UUID sender) {
        if (!Senders.compact(sender)) {
            throw new IllegalArgumentException("Not a sender id: the least significant half must be a task number"
                    + " in [0, 2147483647]; sender=" + sender);
        }
        long64(sender.getMostSignificantBits());
        varint(sender.getLeastSignificantBits());
    }

    void long64(long v) {
        for (int shift = 56; shift >= 0; shift -= 8) {
            write((int) (v >>> shift));
        }
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, count);
    }
}
