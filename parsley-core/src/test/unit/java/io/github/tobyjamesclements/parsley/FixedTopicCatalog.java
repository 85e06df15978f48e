package io.github.tobyjamesclements.parsley;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A broker-less catalog with chosen partition counts that can claim to be broker-backed: it lets
 * the host's checks that only run against a real cluster (the exactly-once and captured-position
 * self-checks, the tick topic's width) be triggered without one. Topic ids are the name-based
 * UUIDs of {@link LocalTopicCatalog}, so clocks written for {@code testTopology()} resolve here.
 */
final class FixedTopicCatalog implements TopicCatalog {

    /** Answers all but partition counts, chosen log starts and {@link #brokerBacked()} as the test wiring does. */
    private final LocalTopicCatalog names;
    private final Map<String, Integer> partitions = new HashMap<>();
    private final Map<String, Long> logStarts = new HashMap<>();
    private final boolean brokerBacked;

    private FixedTopicCatalog(Iterable<String> declared, boolean brokerBacked) {
        this.names = new LocalTopicCatalog(declared);
        this.brokerBacked = brokerBacked;
    }

    /** Every declared topic with one partition, answering as a real cluster's catalog would. */
    static FixedTopicCatalog brokerBacked(Iterable<String> declared) {
        return new FixedTopicCatalog(declared, true);
    }

    /** Every declared topic with one partition, answering as the test wiring's catalog does. */
    static FixedTopicCatalog local(Iterable<String> declared) {
        return new FixedTopicCatalog(declared, false);
    }

    /** This catalog with {@code topic} resolved to {@code count} partitions. */
    FixedTopicCatalog withPartitions(String topic, int count) {
        partitions.put(topic, count);
        return this;
    }

    /** This catalog with the log of {@code topic}'s partition {@code partition} starting at {@code start}. */
    FixedTopicCatalog withLogStart(String topic, int partition, long start) {
        logStarts.put(topic + "-" + partition, start);
        return this;
    }

    @Override
    public UUID topicId(String topic) {
        return names.topicId(topic);
    }

    @Override
    public int partitions(String topic) {
        return partitions.getOrDefault(topic, 1);
    }

    @Override
    public String nameOf(UUID topicId) {
        return names.nameOf(topicId);
    }

    @Override
    public void verifyUnchanged(Iterable<String> topics) {
        names.verifyUnchanged(topics);
    }

    @Override
    public long logStart(String topic, int partition) {
        Long start = logStarts.get(topic + "-" + partition);
        return start != null ? start : names.logStart(topic, partition);
    }

    @Override
    public boolean brokerBacked() {
        return brokerBacked;
    }

    @Override
    public Optional<Map<Integer, Long>> endOffsets(UUID topicId) {
        return names.endOffsets(topicId);
    }

    @Override
    public LogStarts logStarts(Set<Channel> channels) {
        return names.logStarts(channels);
    }
}
