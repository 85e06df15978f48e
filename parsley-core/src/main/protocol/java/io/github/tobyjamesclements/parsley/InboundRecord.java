package io.github.tobyjamesclements.parsley;

import java.util.Objects;
import java.util.UUID;

/**
 * One fetched record as the host hands it to the protocol (protocol.md §3.1).
 *
 * <p>{@code clock} is null for a record without a {@code vc} header (it claims nothing). A record
 * is tagged iff it has both a sender and a sequence {@code >= 0}; a half tag is refused (F3).
 * Key and value bytes are kept verbatim and may be null. {@code headers} is the host's encoded
 * copy of the record's application headers, opaque to the protocol: null unless the host keeps
 * headers for a dead-letter topic.
 */
record InboundRecord(Channel channel, long offset, VectorClock clock, UUID sender, long senderSeq,
        byte[] key, byte[] value, long timestamp, byte[] headers) {

    InboundRecord {
        Objects.requireNonNull(channel, "channel");
        HeldEntry.requireWellFormed(channel, offset, sender, senderSeq);
    }

    /** A record whose headers the host does not keep. */
    InboundRecord(Channel channel, long offset, VectorClock clock, UUID sender, long senderSeq, byte[] key,
            byte[] value, long timestamp) {
        this(channel, offset, clock, sender, senderSeq, key, value, timestamp, null);
    }

    boolean tagged() {
        return sender != null;
    }
}
