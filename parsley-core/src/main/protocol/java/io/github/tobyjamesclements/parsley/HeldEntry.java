package io.github.tobyjamesclements.parsley;

import java.util.UUID;

/**
 * A received record on its channel, as the hold queue keeps it (protocol.md §10.3) and, once the
 * gate releases it, as its {@link Delivery}. The clock is the record's dependency clock, empty when
 * it carried none; it is never mutated. {@code headers} is the host's opaque copy of the record's
 * headers, or null when it keeps none.
 */
record HeldEntry(Channel channel, long offset, VectorClock clock, UUID sender, long seq, byte[] key, byte[] value,
        long timestamp, byte[] headers) implements Delivery {

    /** An entry without kept headers. */
    HeldEntry(Channel channel, long offset, VectorClock clock, UUID sender, long seq, byte[] key, byte[] value,
            long timestamp) {
        this(channel, offset, clock, sender, seq, key, value, timestamp, null);
    }

    /**
     * The clock an unstamped record is held with while it is borrowed: one shared, empty instance
     * instead of two empty tree maps per record. Nothing writes a held entry's clock, and an entry
     * that outlives its call is given a copy of its own (NodeState's flush).
     */
    private static final VectorClock NO_CLAIMS = new VectorClock();

    /**
     * An entry sharing the record's clock, valid while the caller does not change that clock: for
     * the call that received the record, which copies it only if the entry outlives the call.
     */
    static HeldEntry borrowing(InboundRecord r) {
        VectorClock clock = r.clock() == null ? NO_CLAIMS : r.clock();
        return new HeldEntry(r.channel(), r.offset(), clock, r.sender(), r.senderSeq(), r.key(), r.value(),
                r.timestamp(), r.headers());
    }

    /**
     * A fetched record as the host hands it to {@link CausalNode#onRecord(HeldEntry)}: what
     * {@link InboundRecord} says, checked as it checks, without a second object per record. The
     * entry borrows {@code clock} (null for a record without one) as {@link #borrowing} does.
     *
     * @throws IllegalArgumentException for a negative offset or a half sender tag (F3)
     */
    static HeldEntry received(Channel channel, long offset, VectorClock clock, UUID sender, long seq, byte[] key,
            byte[] value, long timestamp, byte[] headers) {
        requireWellFormed(channel, offset, sender, seq);
        return new HeldEntry(channel, offset, clock == null ? NO_CLAIMS : clock, sender, seq, key, value, timestamp,
                headers);
    }

    /** The checks of a fetched record's coordinate and tag (protocol.md §3.1, F3). */
    static void requireWellFormed(Channel channel, long offset, UUID sender, long seq) {
        if (offset < 0) {
            throw new IllegalArgumentException("Record offset must be >= 0; channel=" + channel + ", offset=" + offset);
        }
        if ((sender == null) != (seq < 0)) {
            throw new IllegalArgumentException("Sender and sequence must be tagged together; channel=" + channel
                    + ", offset=" + offset + ", sender=" + sender + ", seq=" + seq);
        }
    }

    HeldEntry withClock(VectorClock own) {
        return new HeldEntry(channel, offset, own, sender, seq, key, value, timestamp, headers);
    }

    boolean tagged() {
        return sender != null;
    }
}
