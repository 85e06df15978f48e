package io.github.tobyjamesclements.parsley;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * The stored form of a held record (protocol.md §10.3, with the clock in Parsley's wire format):
 * offset, timestamp, sender tag, clock, key and value, then, only for an entry that keeps its
 * headers (a stage with a dead-letter topic), the host's header block. An entry without headers
 * is byte for byte what earlier builds wrote, so their stores restore unchanged. Decoding is
 * strict like the clock's: any byte string {@link #encode} would not write is a
 * {@link CorruptClockException}.
 */
final class HeldEntryEnvelope {

    private HeldEntryEnvelope() {
    }

    static byte[] encode(HeldEntry e) {
        byte[] clock = ClockCodec.encode(e.clock());
        int keyLen = e.key() == null ? 0 : e.key().length;
        int valueLen = e.value() == null ? 0 : e.value().length;
        int headersLen = e.headers() == null ? 0 : 4 + e.headers().length;
        ByteBuffer b = ByteBuffer.allocate(8 + 8 + 1 + 24 + 4 + clock.length + 4 + keyLen + 4 + valueLen
                + headersLen);
        b.putLong(e.offset()).putLong(e.timestamp());
        b.put((byte) (e.tagged() ? 1 : 0));
        b.putLong(e.tagged() ? e.sender().getMostSignificantBits() : 0);
        b.putLong(e.tagged() ? e.sender().getLeastSignificantBits() : 0);
        b.putLong(e.tagged() ? e.seq() : -1);
        b.putInt(clock.length).put(clock);
        putBytes(b, e.key());
        putBytes(b, e.value());
        if (e.headers() != null) {
            putBytes(b, e.headers());
        }
        return b.array();
    }

    /**
     * The entry stored under a key of {@code channel}'s queue (the channel is the key's, not the
     * envelope's). Strict like the clock: anything {@link #encode} would not write is corrupt.
     */
    static HeldEntry decode(Channel channel, byte[] bytes) {
        return decode(channel, bytes, new StampReader(ChannelCache.NONE), null);
    }

    /**
     * {@link #decode(Channel, byte[])} for one of many entries restored together: its clock decoded
     * through {@code reader}, so that its claims name the reader's kept channel and topic-id
     * instances, and its sender {@code previousSender} itself when the ids are equal, as a queue's
     * consecutive entries mostly are (each its own instance otherwise: 72 bytes per claim and 32 per
     * sender, per restored record).
     */
    static HeldEntry decode(Channel channel, byte[] bytes, StampReader reader, UUID previousSender) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        try {
            long offset = b.getLong();
            long timestamp = b.getLong();
            byte tag = b.get();
            long senderHigh = b.getLong();
            long senderLow = b.getLong();
            long seq = b.getLong();
            boolean consistent = tag == 1 ? seq >= 0 : tag == 0 && seq == -1 && senderHigh == 0 && senderLow == 0;
            if (!consistent) {
                throw new CorruptClockException("Malformed held-record envelope: inconsistent sender tag; tagged=" + tag
                        + ", sender=" + new UUID(senderHigh, senderLow) + ", seq=" + seq);
            }
            UUID sender = tag == 0 ? null : sender(senderHigh, senderLow, previousSender);
            VectorClock clock = reader.stored(getBytes(b));
            byte[] key = getBytes(b);
            byte[] value = getBytes(b);
            byte[] headers = b.hasRemaining() ? getHeaders(b) : null;
            if (b.hasRemaining()) {
                throw new CorruptClockException("Malformed held-record envelope: " + b.remaining() + " trailing bytes");
            }
            return new HeldEntry(channel, offset, clock, sender, seq, key, value, timestamp, headers);
        } catch (BufferUnderflowException e) {
            throw new CorruptClockException("Malformed held-record envelope: truncated at byte " + b.position(), e);
        }
    }

    /** The sender id with these bits: {@code previous} itself when its bits are these. */
    private static UUID sender(long high, long low, UUID previous) {
        boolean same = previous != null && previous.getMostSignificantBits() == high
                && previous.getLeastSignificantBits() == low;
        return same ? previous : new UUID(high, low);
    }

    private static void putBytes(ByteBuffer b, byte[] bytes) {
        if (bytes == null) {
            b.putInt(-1);
        } else {
            b.putInt(bytes.length).put(bytes);
        }
    }

    /** Absent headers are written as nothing, never as a null length, so one form per entry. */
    private static byte[] getHeaders(ByteBuffer b) {
        byte[] headers = getBytes(b);
        if (headers == null) {
            throw new CorruptClockException("Malformed held-record envelope: null header block");
        }
        return headers;
    }

    private static byte[] getBytes(ByteBuffer b) {
        int len = b.getInt();
        if (len < -1) {
            throw new CorruptClockException("Malformed held-record envelope: negative length " + len);
        }
        if (len > b.remaining()) {
            throw new CorruptClockException("Malformed held-record envelope: length " + len + " exceeds the "
                    + b.remaining() + " remaining bytes");
        }
        if (len == -1) {
            return null;
        }
        byte[] out = new byte[len];
        b.get(out);
        return out;
    }
}
