package io.github.tobyjamesclements.parsley;

/**
 * One record released by the gate, in causal order (protocol.md §3.1). The coordinate is the
 * record's own, not that of the record whose arrival released it.
 */
record Delivery(Channel channel, long offset, byte[] key, byte[] value, long timestamp) {
}
