package io.github.tobyjamesclements.parsley;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiConsumer;

/**
 * The decision points of a {@link CausalNode} that a verification harness may replace, given to
 * the node's constructor. Each default is the protocol's own decision, so {@link #NONE} is the
 * protocol as specified and production code never passes anything else; the simulator plants a
 * fault by overriding one decision and checks that its invariants catch it.
 *
 * <p>A decision that the node computes is handed in as the honest answer and the seam returns the
 * one to use; a seam never sees the node's state itself, only what its decision is about.
 */
interface NodeSeams {

    /** The protocol as specified. */
    NodeSeams NONE = new NodeSeams() {
    };

    /** The gate's verdict on a head (protocol.md §3.2); {@code gate} is the honest verdict. */
    default boolean deliverable(Channel c, HeldEntry head, boolean gate) {
        return gate;
    }

    /**
     * Whether a record arriving on {@code c} that the gate passes is delivered without entering the
     * queue (§3.4); the protocol does so only when {@code queueEmpty}, where it would be the head.
     */
    default boolean deliversOnArrival(Channel c, boolean queueEmpty) {
        return queueEmpty;
    }

    /** Delivers one deliverable head of {@code c} into {@code out} (§3.2: FIFO, heads only). */
    default void deliver(Channel c, Heads heads, List<Delivery> out) {
        out.add(heads.deliverHead(c));
    }

    /** The skip run below a held head (§4.3); {@code below} is the honest one, the head's offset minus one. */
    default long skipRunBelow(Channel c, long below) {
        return below;
    }

    /** Whether a position advance is taken while the channel's queue holds records (§3.5 rule 4). */
    default boolean takesPosition(Channel c, boolean queueHolds) {
        return true;
    }

    /** Folds a received clock into its channel clock at receive (§3.7 rule 2). */
    default void received(Channel c, VectorClock clock, BiConsumer<Channel, VectorClock> fold) {
        fold.accept(c, clock);
    }

    /** Runs first in each receive-path call; the protocol has nothing left over from the last one. */
    default void callStarts(BiConsumer<Channel, VectorClock> fold) {
    }

    /**
     * Whether a fold that raised a channel clock renews the clocks every later stamp merges (§6.1):
     * the node keeps their union from send to send and must raise it with every received clock
     * that raised one.
     */
    default boolean renewsStampOnFold() {
        return true;
    }

    /**
     * Whether a frontier rise renews the stamp base the node keeps from send to send (§6.1): the
     * base holds the frontier, so it must rise with every delivery and skip run.
     */
    default boolean renewsStampOnAdvance() {
        return true;
    }

    /**
     * The clock a record still held when its call ends keeps (NodeState#holdBorrowing): a copy,
     * because the host reads every record's stamp into one clock it reuses.
     */
    default VectorClock keepBorrowed(VectorClock borrowed) {
        return VectorClock.copyOf(borrowed);
    }

    /**
     * The watermark a coarsened stamp's whole-topic claim takes for the partition claim {@code k}
     * at {@code seq} (§6.7): {@code seq} itself, so the whole-topic claim covers it; a negative
     * answer adds nothing for it.
     */
    default long coarsenedClaim(SeqKey k, long seq) {
        return seq;
    }

    /** The merged stamp before normalisation (§6.1, §3.7 rule 1); {@code base} is the honest one. */
    default VectorClock stampBase(VectorClock base, Set<Channel> consumed) {
        return base;
    }

    /**
     * Removes from a stamp for {@code destination} the claims the destination's own log order
     * implies (§6.1): every claim on the destination channel itself, and nothing else.
     */
    default void dropImplied(VectorClock stamp, Channel destination) {
        stamp.removeChannel(destination);
    }

    /**
     * Whether the init seed claims a sink channel as own output (§6.4): only where this node has
     * committed sends, that is where its restored send sequence {@code baselineSeq} is {@code >= 0}.
     */
    default boolean seedsOwnOutput(Channel c, long baselineSeq) {
        return baselineSeq >= 0;
    }

    /**
     * The reserved send-sequence ceiling of {@code c} after issuing {@code next} (§6.2), given the
     * ceiling {@code reserved} held so far: unchanged while {@code next} is at or below it, else the
     * next block, {@code next + block − 1} (at most {@link Long#MAX_VALUE}). A changed ceiling is
     * persisted with the send that needed it.
     */
    default long sequenceCeiling(Channel c, long next, long reserved, int block) {
        if (next <= reserved) {
            return reserved;
        }
        long ceiling = next + (block - 1);
        return ceiling < next ? Long.MAX_VALUE : ceiling;
    }

    /** What decides a whole-topic claim the sender's mark does not meet (§3.9): the honest node's probes. */
    default Gate.Probed probed(Gate.Probed probes) {
        return probes;
    }

    /** Whether a probe's answer counts for a head (§3.9): the honest node asks that the head arrived before it started. */
    default boolean probeCovers(Probes.Ticket ticket, Channel own, long offset) {
        return ticket.covers(own, offset);
    }

    /** Whether a probe's answer waits for the sender's queued records (§3.9): the honest node does. */
    default boolean probeReadsQueue() {
        return true;
    }

    /**
     * A consumed channel's frontier derived at init (§7.1); {@code derived} is the honest one, from
     * the queue head or else the committed position ({@code committedPosition}, −1 when none).
     */
    default long derivedFrontier(Channel c, long derived, long committedPosition) {
        return derived;
    }

    /**
     * A hold queue as the node restores it at init (§7.1); {@code queue} is the honest one, each
     * entry with the sender tag it was held with (ProtocolStore#queues shares one id between
     * consecutive entries only where their tags are equal).
     */
    default HoldQueue restoredQueue(Channel c, HoldQueue queue) {
        return queue;
    }

    /** The floor persisted for a grown input seeded at {@code seed} (§7.2 step 3); −1 persists none. */
    default long seedFloor(Channel grown, long seed) {
        return seed;
    }

    /** The end offsets that claim a removed input's delivered past (§7.2 step 2: the high watermark). */
    default Optional<Map<Integer, Long>> removedInputEnds(UUID topic, BrokerOffsets broker) {
        return broker.endOffsets(topic);
    }

    /** The end offsets that seed own outputs for a declared sink (§6.4, §16.1: the high watermark). */
    default Optional<Map<Integer, Long>> sinkEnds(UUID topic, BrokerOffsets broker) {
        return broker.endOffsets(topic);
    }

    /** The truncation bound's broker answer (§8.2: log starts, and only proven absence drops claims). */
    default BrokerOffsets.LogStarts logStarts(Set<Channel> channels, BrokerOffsets broker) {
        return broker.logStarts(channels);
    }

    /** What a delivery decision may look at and do: the queue heads, the gate, and a delivery. */
    interface Heads {

        /** A channel's queue head, or null when nothing is queued there. */
        HeldEntry head(Channel c);

        /** The entry right behind a channel's head, or null when there is none. */
        HeldEntry behindHead(Channel c);

        /** The (seamed) gate's verdict on an entry of channel {@code c}, against the current state. */
        boolean deliverable(Channel c, HeldEntry entry);

        /** Pops the head of {@code c}, advances frontier and mark, and returns its delivery (§3.2 rule 6). */
        Delivery deliverHead(Channel c);
    }
}
