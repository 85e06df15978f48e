package io.github.tobyjamesclements.parsley;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Broker offset facts the node needs (protocol.md §6.4, §8.2). Both queries carry soundness
 * obligations: an answer of absence must be definitive, and any other failure must throw.
 */
interface BrokerOffsets {

    /**
     * The high-watermark (read-uncommitted) end offset of every partition of a topic
     * (protocol.md §16.1), or empty when the topic is proven gone. A topic this client cannot see
     * (deleted, or not visible to its principal, which Kafka does not tell apart by id) is not
     * proven gone.
     *
     * @throws RuntimeException when the answer is not known, including a topic that cannot be seen
     */
    Optional<Map<Integer, Long>> endOffsets(UUID topicId);

    /**
     * The log-start offsets of the given channels, those whose topic is proven gone, and those
     * whose topic cannot be seen. Every channel asked about is in exactly one of the three.
     *
     * @throws RuntimeException when the answer is not known
     */
    LogStarts logStarts(Set<Channel> channels);

    /**
     * Log starts per channel; channels whose topic is proven gone (deleted, or recreated under a
     * new id); and channels whose topic cannot be seen. Only proven absence lets claims be dropped
     * (docs/protocol-decisions.md, "Unresolvable topics keep their claims"); a topic that cannot be
     * seen may exist and be hidden from this principal, so its claims are kept.
     */
    record LogStarts(Map<Channel, Long> starts, Set<Channel> confirmedAbsent, Set<Channel> unresolved) {

        /** Log starts and proven absence, every topic resolved. */
        LogStarts(Map<Channel, Long> starts, Set<Channel> confirmedAbsent) {
            this(starts, confirmedAbsent, Set.of());
        }

        /**
         * The truncation bound these answers give (protocol.md §8.2): {@code logStart − 1} where a
         * log starts above 0, everything for a topic proven gone, nothing for an unresolved one.
         */
        VectorClock bound() {
            VectorClock bound = new VectorClock();
            starts.forEach((c, start) -> {
                if (start > 0) {
                    bound.advanceTo(c, start - 1);
                }
            });
            confirmedAbsent.forEach(c -> bound.advanceTo(c, Long.MAX_VALUE));
            return bound;
        }

        /** The topic ids of {@link #unresolved()}. */
        Set<UUID> unresolvedTopics() {
            Set<UUID> out = new TreeSet<>();
            unresolved.forEach(c -> out.add(c.topicId()));
            return out;
        }
    }
}
