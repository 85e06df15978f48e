package io.github.tobyjamesclements.parsley;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The name of Parsley's record header, and readers for its sender tag, for observability tools
 * and plain clients.
 *
 * <p>Every record a stage emits carries one header, {@value #CLOCK}: its dependency clock and its
 * sender tag (the emitting stage task's id and the record's send sequence on its partition), in
 * Parsley's wire format, version 2. Records stamped by {@link CausalClock} carry the same header
 * without a sender tag. Reading is strict: a {@value #CLOCK} header that appears twice, has a
 * null value, or does not decode (including one of another wire-format version) is corrupt.
 * Stateless and thread-safe.
 */
public final class CausalHeaders {

    /** The clock header: the record's dependency clock and, on stage emissions, its sender tag. */
    public static final String CLOCK = "vc";

    private static final Read UNSTAMPED = new Read(null, null, -1);

    private CausalHeaders() {
    }

    /**
     * The id of the stage task that emitted a record: its stage id in the most significant half,
     * its task number (the partition it consumes) in the least significant half.
     *
     * @param headers the record's headers, never null
     * @return the sender id, or empty for a record no stage emitted
     * @throws CorruptClockException if the {@value #CLOCK} header is duplicated, null or corrupt
     */
    public static Optional<UUID> sender(Headers headers) {
        SendStamp stamp = stamp(headers);
        return stamp == null ? Optional.empty() : Optional.ofNullable(stamp.sender());
    }

    /**
     * The send sequence of a record on its partition, counted per sender from 0.
     *
     * @param headers the record's headers, never null
     * @return the sequence, or empty for a record no stage emitted
     * @throws CorruptClockException if the {@value #CLOCK} header is duplicated, null or corrupt
     */
    public static OptionalLong seq(Headers headers) {
        SendStamp stamp = stamp(headers);
        return stamp == null || stamp.sender() == null ? OptionalLong.empty() : OptionalLong.of(stamp.seq());
    }

    /**
     * Reads the protocol header of a consumed record; {@code where} ({@code topic=…, partition=…,
     * offset=…}) is appended to any error.
     */
    static Read read(Headers headers, String where) {
        try {
            return read(headers);
        } catch (CorruptClockException e) {
            throw new CorruptClockException(e.getMessage() + "; " + where);
        }
    }

    /** Reads the protocol header of a consumed record; the caller adds the record's location to any error. */
    static Read read(Headers headers) {
        SendStamp stamp = stamp(headers);
        return stamp == null ? UNSTAMPED : new Read(stamp.clock(), stamp.sender(), stamp.seq());
    }

    /** Reads the protocol header of a consumed record: {@link #read(Headers)}, into a task's reader (the read path). */
    static void read(Headers headers, StampReader into) {
        byte[] bytes = stampBytes(headers);
        if (bytes == null) {
            into.absent();
        } else {
            into.read(bytes);
        }
    }

    /** Replaces the protocol header with a stage emission's stamp, sender tag included. */
    static void write(Headers headers, SendStamp stamp) {
        headers.remove(CLOCK).add(CLOCK, ClockCodec.encode(stamp));
    }

    /**
     * Adds a stage emission's encoded stamp ({@code CausalNode.encodeSend}) to headers that hold no
     * protocol header yet, such as a new record's: what {@link #write} leaves there, without
     * searching them first.
     */
    static void addStamp(Headers fresh, byte[] stamp) {
        fresh.add(CLOCK, stamp);
    }

    /** Replaces the protocol header with an untagged clock: a plain client's stamp. */
    static void writeClock(Headers headers, VectorClock clock) {
        headers.remove(CLOCK).add(CLOCK, ClockCodec.encode(clock));
    }

    private static SendStamp stamp(Headers headers) {
        byte[] bytes = stampBytes(headers);
        return bytes == null ? null : ClockCodec.decodeStamp(bytes);
    }

    /** The value of the one protocol header, or null when there is none. */
    private static byte[] stampBytes(Headers headers) {
        if (headers.lastHeader(CLOCK) == null) {
            // an unstamped record, the commonest at a pipeline's edge: Kafka's headers answer without an array
            return null;
        }
        // one array of the record's few headers, not the filtering view's iterators: a duplicate is corrupt
        Header h = null;
        for (Header each : headers.toArray()) {
            if (CLOCK.equals(each.key())) {
                if (h != null) {
                    throw new CorruptClockException("Duplicate " + CLOCK + " header");
                }
                h = each;
            }
        }
        if (h.value() == null) {
            throw new CorruptClockException("Header " + CLOCK + " present with a null value");
        }
        return h.value();
    }

    /** The protocol header of one consumed record: clock null when absent, sender null and seq −1 when untagged. */
    record Read(VectorClock clock, UUID sender, long seq) {
    }
}
