package io.github.tobyjamesclements.parsley;

import java.util.EnumMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Counters of what a run actually exercised (style.md rule 14): a run whose interesting counters
 * stay at zero proved nothing. Hosts count by observing the node (for example a cascade is a
 * delivery list longer than one).
 */
final class SimStats {

    /** One counted event. */
    enum Counter {
        STEPS,
        DELIVERIES,
        HOLDS,
        CASCADES_LONGER_THAN_ONE,
        CRASHES_MID_STEP,
        CRASHES_IDLE,
        RESTARTS,
        ABORTED_TRANSACTIONS,
        MARKERS_BRIDGED,
        POSITION_ADVANCES,
        ADVANCES_FOLDED_AFTER_DRAIN,
        RETENTION_ADVANCES,
        TRUNCATIONS,
        UNSEEN_CLAIMS_KEPT,
        SCOPE_CHANGES,
        SCOPE_CHANGES_REFUSED,
        SEQ_NORMALISATIONS,
        REPLAYS_SKIPPED,
        DEAD_LETTERS_UNREADABLE,
        DEAD_LETTERS_GATED,
        DEAD_LETTERS_RESTORED,
        FAN_OUT_SHARED_ABORTS,
        FAN_OUT_HANDOVERS,
        FAN_OUT_HOLDS_IN_EVERY_STAGE,
        /** A restored queue entry whose sender differs from the entry before it in its queue. */
        RESTORED_SENDER_SWITCHES,
        /** A stamp that claims a sender's sends to a topic with one whole-topic claim (protocol.md §6.2). */
        WHOLE_TOPIC_CLAIMS,
        PROBES_ANSWERED,
        /** A stamp over its node's bound, coarsened (protocol.md §6.7, §10.2). */
        STAMPS_COARSENED,
        /** A probe's answer that released a held head (§3.9). */
        PROBE_RELEASES,
        /** Re-keying families: a stage's committed send to another partition of a topic than its previous one there. */
        REKEYED_SENDS_CROSSING_PARTITIONS,
        /** Re-keying families: a delivery after one of its sender's earlier records on another partition of the topic. */
        SENDER_ORDER_PAIRS_ACROSS_PARTITIONS,
        /** Re-keying families: a delivery after a causal ancestor on another consumed topic, by another sender. */
        CAUSAL_PAIRS_ACROSS_HOPS,
        /**
         * Re-keying families: a delivery whose past names a re-keying sender's last send on a topic, on another
         * partition than one the node consumes, and that sender never sent to that consumed partition again.
         */
        CLAIMS_ON_IDLE_PARTITIONS,
        /** Of those, the ones where the sender had sent to the consumed partition before: a mark below the claim. */
        CLAIMS_ABOVE_A_LOWER_MARK,
        /** Re-keying families: records held on arrival by nodes that consume two channels or more. */
        HOLDS_AT_CROSS_PARTITION_READERS,
        /** A readable node crashed between its pre-commit persist and its commit. */
        CRASHES_BEFORE_COMMIT,
        /** Reads of a node's committed state that the read gate answered (protocol.md §17). */
        READS_ANSWERED,
        /** Reads the gate did not answer: the committed state had not met the token's claims. */
        READS_UNMET,
        /** Reads that found no readable state: the node was down, or not started. */
        READS_NO_OWNER,
        /** Reads retried once the world drained, each with the token it was first tried with. */
        READS_RETRIED_AT_DRAIN,
        /** Answered reads whose token's true past held a committed record on a channel the node consumes. */
        READS_COVERING_PAST,
        /** The records of such pasts, each checked to be in the value read. */
        READ_RECORDS_CHECKED,
        /** Answered reads of a node that restarted since the session's last answered read of it. */
        READS_AFTER_RESTART,
        /** Reads while the node was between its pre-commit persist and its commit. */
        READS_IN_COMMIT_WINDOW,
        /** Reads whose token held a whole-topic claim on a topic the node consumes. */
        READS_WITH_WHOLE_TOPIC_CLAIMS,
        /** Reads whose token held claims on channels the node does not consume. */
        READS_CLAIMING_UNCONSUMED,
        /** Answered reads in a session that had already read another node. */
        READS_ACROSS_NODES,
        /** Answered reads with a sequence claim no mark met, decided by an end offset read at the read. */
        READS_DECIDED_BY_END_OFFSETS
    }

    /** The counters the anti-vacuity check requires to be non-zero across the default run. */
    static final Counter[] REQUIRED = {
        Counter.DELIVERIES, Counter.HOLDS, Counter.CASCADES_LONGER_THAN_ONE, Counter.CRASHES_MID_STEP,
        Counter.ABORTED_TRANSACTIONS, Counter.MARKERS_BRIDGED, Counter.ADVANCES_FOLDED_AFTER_DRAIN,
        Counter.TRUNCATIONS, Counter.UNSEEN_CLAIMS_KEPT, Counter.SCOPE_CHANGES, Counter.SEQ_NORMALISATIONS,
        Counter.DEAD_LETTERS_UNREADABLE, Counter.DEAD_LETTERS_GATED, Counter.DEAD_LETTERS_RESTORED,
        Counter.FAN_OUT_SHARED_ABORTS, Counter.FAN_OUT_HANDOVERS, Counter.FAN_OUT_HOLDS_IN_EVERY_STAGE,
        Counter.RESTORED_SENDER_SWITCHES, Counter.WHOLE_TOPIC_CLAIMS, Counter.PROBE_RELEASES,
        Counter.REKEYED_SENDS_CROSSING_PARTITIONS,
        Counter.SENDER_ORDER_PAIRS_ACROSS_PARTITIONS, Counter.CAUSAL_PAIRS_ACROSS_HOPS, Counter.CLAIMS_ON_IDLE_PARTITIONS,
        Counter.CLAIMS_ABOVE_A_LOWER_MARK, Counter.HOLDS_AT_CROSS_PARTITION_READERS,
        Counter.CRASHES_BEFORE_COMMIT, Counter.READS_ANSWERED, Counter.READS_UNMET, Counter.READS_COVERING_PAST,
        Counter.READS_AFTER_RESTART, Counter.READS_IN_COMMIT_WINDOW
    };

    private final EnumMap<Counter, Long> counts = new EnumMap<>(Counter.class);

    SimStats() {
        for (Counter c : Counter.values()) {
            counts.put(c, 0L);
        }
    }

    void add(Counter c) {
        add(c, 1);
    }

    void add(Counter c, long n) {
        counts.merge(c, n, Long::sum);
    }

    long get(Counter c) {
        return counts.get(c);
    }

    void addAll(SimStats other) {
        other.counts.forEach(this::add);
    }

    Map<Counter, Long> asMap() {
        return new EnumMap<>(counts);
    }

    @Override
    public String toString() {
        StringJoiner j = new StringJoiner(", ", "{", "}");
        counts.forEach((c, n) -> j.add(c.name().toLowerCase(java.util.Locale.ROOT) + "=" + n));
        return j.toString();
    }
}
