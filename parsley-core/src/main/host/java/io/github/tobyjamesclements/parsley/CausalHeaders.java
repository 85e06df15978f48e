package io.github.tobyjamesclements.parsley;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The names of Parsley's record headers, and readers for the sender tag, for observability
 * tools and plain clients.
 *
 * <p>Every record a stage emits carries {@value #CLOCK} (its dependency clock, in Parsley's wire
 * format), {@value #SENDER} (16 bytes: the emitting stage task's id) and {@value #SEQ} (8 bytes,
 * big-endian: its send sequence on its partition). Records stamped by {@link CausalClock} carry
 * only {@value #CLOCK}. Reading is strict: a protocol header that appears twice, has a null
 * value, or has the wrong length is corrupt, and so is a sender without a sequence or the
 * reverse. Stateless and thread-safe.
 */
public final class CausalHeaders {

    /** The dependency clock header. */
    public static final String CLOCK = "vc";

    /** The sender id header: 16 bytes, most significant half first. */
    public static final String SENDER = "vc-sender";

    /** The send sequence header: an 8-byte big-endian long. */
    public static final String SEQ = "vc-seq";

    private CausalHeaders() {
    }

    /**
     * The id of the stage task that emitted a record.
     *
     * @param headers the record's headers, never null
     * @return the sender id, or empty for a record no stage emitted
     * @throws CorruptClockException if the header is duplicated, null or not 16 bytes long
     */
    public static Optional<UUID> sender(Headers headers) {
        byte[] bytes = single(headers, SENDER);
        if (bytes == null) {
            return Optional.empty();
        }
        if (bytes.length != 16) {
            throw new CorruptClockException("Malformed " + SENDER + " header: " + bytes.length + " bytes, expected 16");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        return Optional.of(new UUID(b.getLong(), b.getLong()));
    }

    /**
     * The send sequence of a record on its partition, counted per sender from 0.
     *
     * @param headers the record's headers, never null
     * @return the sequence, or empty for a record no stage emitted
     * @throws CorruptClockException if the header is duplicated, null, not 8 bytes long or negative
     */
    public static OptionalLong seq(Headers headers) {
        byte[] bytes = single(headers, SEQ);
        if (bytes == null) {
            return OptionalLong.empty();
        }
        if (bytes.length != 8) {
            throw new CorruptClockException("Malformed " + SEQ + " header: " + bytes.length + " bytes, expected 8");
        }
        long seq = ByteBuffer.wrap(bytes).getLong();
        if (seq < 0) {
            throw new CorruptClockException("Malformed " + SEQ + " header: negative sequence " + seq);
        }
        return OptionalLong.of(seq);
    }

    /**
     * Reads the protocol headers of a consumed record; {@code where} ({@code topic=…, partition=…,
     * offset=…}) is appended to any error.
     */
    static Read read(Headers headers, String where) {
        try {
            byte[] clockBytes = single(headers, CLOCK);
            VectorClock clock = clockBytes == null ? null : ClockCodec.decode(clockBytes);
            Optional<UUID> sender = sender(headers);
            OptionalLong seq = seq(headers);
            if (sender.isPresent() != seq.isPresent()) {
                throw new CorruptClockException("Half a sender tag: " + SENDER + " and " + SEQ
                        + " must appear together");
            }
            return new Read(clock, sender.orElse(null), seq.orElse(-1));
        } catch (CorruptClockException e) {
            throw new CorruptClockException(e.getMessage() + "; " + where);
        }
    }

    /** Replaces the protocol headers with a stage emission's stamp. */
    static void write(Headers headers, SendStamp stamp) {
        writeClock(headers, stamp.clock());
        headers.remove(SENDER).add(SENDER, ByteBuffer.allocate(16).putLong(stamp.sender().getMostSignificantBits())
                .putLong(stamp.sender().getLeastSignificantBits()).array());
        headers.remove(SEQ).add(SEQ, ByteBuffer.allocate(8).putLong(stamp.seq()).array());
    }

    /** Replaces the clock header; a plain client's stamp carries no sender tag. */
    static void writeClock(Headers headers, VectorClock clock) {
        headers.remove(CLOCK).add(CLOCK, ClockCodec.encode(clock));
    }

    private static byte[] single(Headers headers, String name) {
        Iterator<Header> it = headers.headers(name).iterator();
        if (!it.hasNext()) {
            return null;
        }
        Header h = it.next();
        if (it.hasNext()) {
            throw new CorruptClockException("Duplicate " + name + " header");
        }
        if (h.value() == null) {
            throw new CorruptClockException("Header " + name + " present with a null value");
        }
        return h.value();
    }

    /** The protocol headers of one consumed record: clock null when absent, seq −1 when untagged. */
    record Read(VectorClock clock, UUID sender, long seq) {
    }
}
