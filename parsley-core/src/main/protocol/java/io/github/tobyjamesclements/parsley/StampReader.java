package io.github.tobyjamesclements.parsley;

import java.util.UUID;

/**
 * A task's reader of record stamps ({@link ClockCodec}, wire format version 2): decodes each into
 * one clock it reuses, so a record costs no clock of its own. What it holds is valid until the next
 * {@link #read} or {@link #absent}: the node borrows the clock for the call the record is fed in and
 * copies it only for a record still held when the call ends (NodeState#holdBorrowing). A sender id
 * is reused while records name the same sender, as most do. As strict as {@link ClockCodec}: after a
 * refused stamp the reader holds none. One thread.
 */
final class StampReader {

    private static final VectorClock NO_CLAIMS = new VectorClock();

    private final ChannelCache channels;
    private final VectorClock clock = new VectorClock();
    private boolean stamped;
    /** The last stamp's bytes as handed in, kept (not copied) for a reader of the stamp after the call. */
    private byte[] bytes;
    private UUID sender;
    private long seq = -1;
    private UUID lastSender;

    /** A reader whose clocks name the channels and topic ids {@code channels} keeps. */
    StampReader(ChannelCache channels) {
        this.channels = channels;
    }

    /**
     * Decodes a record's {@code vc} header value.
     *
     * @throws CorruptClockException for anything the encoder would not write
     */
    void read(byte[] bytes) {
        absent();
        clock.setTo(NO_CLAIMS, 0);
        try {
            ClockCodec.decodeStamp(bytes, channels, this);
        } catch (RuntimeException e) {
            absent();
            throw e;
        }
        stamped = true;
        this.bytes = bytes;
    }

    /**
     * Decodes a stored clock ({@link ClockCodec#decode(byte[])}) into an exact-size copy of its own,
     * its claims naming this reader's kept channels and topic ids: what a restore keeps of each of
     * many stored clocks. Leaves the reader holding no stamp.
     *
     * @throws CorruptClockException for anything the encoder would not write, or a sender tag
     */
    VectorClock stored(byte[] bytes) {
        read(bytes);
        if (sender != null) {
            absent();
            throw new CorruptClockException("Stored clock carries a sender tag; only record headers are tagged");
        }
        VectorClock copy = VectorClock.copyOf(clock);
        absent();
        return copy;
    }

    /** Notes a record without a stamp: no clock, no sender tag. */
    void absent() {
        stamped = false;
        bytes = null;
        sender = null;
        seq = -1;
    }

    /** The decoder's empty clock to fill. */
    VectorClock emptyClock() {
        return clock;
    }

    /** The decoder's sender tag: a stage id, a task number and the record's send sequence. */
    void tag(long stage, long task, long sendSeq) {
        UUID last = lastSender;
        if (last == null || last.getMostSignificantBits() != stage || last.getLeastSignificantBits() != task) {
            last = new UUID(stage, task);
            lastSender = last;
        }
        sender = last;
        seq = sendSeq;
    }

    /** The last record's clock, or null when it carried none. */
    VectorClock clock() {
        return stamped ? clock : null;
    }

    /**
     * The array the last record's stamp was read from, the caller's own (not a copy), or null when it
     * carried none: what a reader of the stamp decodes once {@link #clock()} holds the next one.
     */
    byte[] bytes() {
        return bytes;
    }

    /** The last record's sender, or null when it is untagged. */
    UUID sender() {
        return sender;
    }

    /** The last record's send sequence, or -1 when it is untagged. */
    long seq() {
        return seq;
    }
}
