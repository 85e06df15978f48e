package io.github.tobyjamesclements.parsley;

/**
 * What a node keeps of one channel it consumes (protocol.md §2): the hold queue, the channel's
 * advertised clock (§3.7), the highest consumer position learned there (§3.5), whether the
 * persisted floor records deliveries there (§7.1), and the key of the last sender's mark.
 *
 * <p>One object per channel, so that a record's path finds all of these with one lookup instead
 * of one per map: a two-source node switches channels several times per record. Only
 * {@link NodeState} reads or changes it, together with the store. A channel restored from the
 * store that the declaration no longer names may have no queue or clock (null) until the
 * rescope retires it; a channel only heard of through its position has neither.
 */
final class ConsumedChannel {

    HoldQueue queue;
    VectorClock clock;
    /** {@link VectorClock#NOTHING} before any position is learned. */
    long positionKnown = VectorClock.NOTHING;
    boolean delivered;
    /** Reused while the channel's records come from one sender, as they mostly do. */
    SeqKey markKey;
}
