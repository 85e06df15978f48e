package io.github.tobyjamesclements.parsley;

/**
 * One record released by the gate, in causal order (protocol.md §3.1). The coordinate is the
 * record's own, not that of the record whose arrival released it. {@code headers} is what the
 * host handed in with the record (null when it keeps none), so a record held across a restart
 * can still be dead-lettered with its original headers.
 *
 * <p>A delivery is the record's {@link HeldEntry} itself, seen without its clock and sender tag:
 * the node hands out the object the host built for the record (or the one it restored), so a
 * delivery costs no object of its own. Read it in the call that returned it; a record delivered on
 * arrival shares the host's reused clock, which the next record overwrites.
 */
sealed interface Delivery permits HeldEntry {

    /** The channel the record was consumed from. */
    Channel channel();

    /** The record's offset on {@link #channel()}. */
    long offset();

    /** The record's key bytes, or null. */
    byte[] key();

    /** The record's value bytes, or null. */
    byte[] value();

    /** The record's timestamp. */
    long timestamp();

    /** The host's opaque copy of the record's headers, or null when it keeps none. */
    byte[] headers();
}
