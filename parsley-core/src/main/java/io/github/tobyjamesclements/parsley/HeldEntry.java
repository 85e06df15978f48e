package io.github.tobyjamesclements.parsley;

import java.util.UUID;

/**
 * A received, not yet delivered record as the hold queue keeps it (protocol.md §10.3). The
 * clock is the record's dependency clock, empty when it carried none; it is never mutated.
 */
record HeldEntry(long offset, VectorClock clock, UUID sender, long seq, byte[] key, byte[] value, long timestamp) {

    static HeldEntry of(InboundRecord r) {
        VectorClock clock = r.clock() == null ? new VectorClock() : VectorClock.copyOf(r.clock());
        return new HeldEntry(r.offset(), clock, r.sender(), r.senderSeq(), r.key(), r.value(), r.timestamp());
    }

    boolean tagged() {
        return sender != null;
    }
}
