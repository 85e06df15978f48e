package io.github.tobyjamesclements.parsley;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The host's byte form of a record's headers, every header in order, duplicates and null values
 * included, so that a record held in the protocol store can be dead-lettered with exactly the
 * headers it arrived with: {@code i32 count}, then per header {@code i32 keyLength}, the key in
 * UTF-8, {@code i32 valueLength} ({@code -1} for a null value) and the value. Decoding is strict:
 * anything {@link #encode} would not write is a {@link CorruptClockException}, like every other
 * stored form.
 */
final class HeaderBlock {

    private HeaderBlock() {
    }

    static byte[] encode(Headers headers) {
        List<byte[]> keys = new ArrayList<>();
        int size = 4;
        for (Header h : headers) {
            byte[] key = h.key().getBytes(StandardCharsets.UTF_8);
            keys.add(key);
            size += 4 + key.length + 4 + (h.value() == null ? 0 : h.value().length);
        }
        ByteBuffer b = ByteBuffer.allocate(size).putInt(keys.size());
        int i = 0;
        for (Header h : headers) {
            byte[] key = keys.get(i++);
            b.putInt(key.length).put(key);
            if (h.value() == null) {
                b.putInt(-1);
            } else {
                b.putInt(h.value().length).put(h.value());
            }
        }
        return b.array();
    }

    static Headers decode(byte[] block) {
        ByteBuffer b = ByteBuffer.wrap(block);
        try {
            int count = b.getInt();
            if (count < 0) {
                throw corrupt("negative header count " + count);
            }
            RecordHeaders out = new RecordHeaders();
            for (int i = 0; i < count; i++) {
                byte[] key = bytes(b, b.getInt(), false);
                byte[] value = bytes(b, b.getInt(), true);
                out.add(utf8(key), value);
            }
            if (b.hasRemaining()) {
                throw corrupt(b.remaining() + " trailing bytes");
            }
            return out;
        } catch (BufferUnderflowException e) {
            throw new CorruptClockException("Malformed header block: truncated at byte " + b.position(), e);
        }
    }

    private static byte[] bytes(ByteBuffer b, int length, boolean nullable) {
        if (length == -1 && nullable) {
            return null;
        }
        if (length < 0 || length > b.remaining()) {
            throw corrupt("length " + length + " with " + b.remaining() + " remaining bytes");
        }
        byte[] out = new byte[length];
        b.get(out);
        return out;
    }

    /** Strict UTF-8: a key that would not re-encode to the same bytes is damage, not a header. */
    private static String utf8(byte[] key) {
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(key));
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw new CorruptClockException("Malformed header block: a header key is not UTF-8", e);
        }
    }

    private static CorruptClockException corrupt(String what) {
        return new CorruptClockException("Malformed header block: " + what);
    }
}
