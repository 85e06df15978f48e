package io.github.tobyjamesclements.parsley;

import java.util.UUID;

/**
 * What the Streams host knows about the topics of an application: ids and partition counts
 * resolved once at assembly, and the broker offset facts the protocol queries (protocol.md §12.6).
 */
interface TopicCatalog extends BrokerOffsets {

    /**
     * The id of a declared topic.
     *
     * @throws IllegalStateException if the topic was not resolved (F15)
     */
    UUID topicId(String topic);

    /** The partition count of a declared topic, as resolved at assembly. */
    int partitions(String topic);

    /** The name of a topic id, for diagnostics: a declared name, or the id itself. */
    String nameOf(UUID topicId);

    /**
     * Re-resolves the given declared topics and fails when one was recreated under the same name
     * (protocol.md §16.4). A transient failure to ask is not an error: the check is skipped.
     *
     * @throws IllegalStateException if a declared topic's id changed or the topic is gone
     */
    void verifyUnchanged(Iterable<String> topics);

    /**
     * The log start of one partition, for the first-sighting retention check (protocol.md §16.3).
     *
     * @throws RuntimeException when the answer is not known
     */
    long logStart(String topic, int partition);

    /** Whether a real broker stands behind this catalog; false for broker-less test wiring. */
    boolean brokerBacked();
}
