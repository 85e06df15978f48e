package io.github.tobyjamesclements.parsley;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Broker offset facts the node needs (protocol.md §6.4, §8.2). Both queries carry soundness
 * obligations: an answer of absence must be definitive, and any other failure must throw.
 */
interface BrokerOffsets {

    /**
     * The high-watermark (read-uncommitted) end offset of every partition of a topic
     * (protocol.md §16.1), or empty when the broker confirms the topic does not exist.
     *
     * @throws RuntimeException when the answer is not known
     */
    Optional<Map<Integer, Long>> endOffsets(UUID topicId);

    /**
     * The log-start offsets of the given channels, and those whose topic the broker confirms
     * absent.
     *
     * @throws RuntimeException when the answer is not known
     */
    LogStarts logStarts(Set<Channel> channels);

    /** Log starts per channel, plus channels whose topic is definitively gone. */
    record LogStarts(Map<Channel, Long> starts, Set<Channel> confirmedAbsent) {
    }
}
