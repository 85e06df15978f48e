package io.github.tobyjamesclements.parsley;

/**
 * One record released by the gate, in causal order (protocol.md §3.1). The coordinate is the
 * record's own, not that of the record whose arrival released it. {@code headers} is what the
 * host handed in with the record (null when it keeps none), so a record held across a restart
 * can still be dead-lettered with its original headers.
 */
record Delivery(Channel channel, long offset, byte[] key, byte[] value, long timestamp, byte[] headers) {

    /** A delivery without kept headers. */
    Delivery(Channel channel, long offset, byte[] key, byte[] value, long timestamp) {
        this(channel, offset, key, value, timestamp, null);
    }
}
