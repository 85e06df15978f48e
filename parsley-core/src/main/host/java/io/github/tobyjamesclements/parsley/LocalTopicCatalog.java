package io.github.tobyjamesclements.parsley;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The broker-less catalog of {@link Parsley#testTopology()} (protocol.md §12.6): topic id is the
 * name-based UUID of the topic name, every topic has one partition, and offset queries answer
 * empty.
 */
final class LocalTopicCatalog implements TopicCatalog {

    private final Map<UUID, String> names = new TreeMap<>();

    LocalTopicCatalog(Iterable<String> declared) {
        declared.forEach(t -> names.put(idOf(t), t));
    }

    static UUID idOf(String topic) {
        return UUID.nameUUIDFromBytes(topic.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public UUID topicId(String topic) {
        return idOf(topic);
    }

    @Override
    public int partitions(String topic) {
        return 1;
    }

    @Override
    public String nameOf(UUID topicId) {
        return names.getOrDefault(topicId, topicId.toString());
    }

    @Override
    public void verifyUnchanged(Iterable<String> topics) {
    }

    @Override
    public long logStart(String topic, int partition) {
        return 0;
    }

    @Override
    public boolean brokerBacked() {
        return false;
    }

    @Override
    public Optional<Map<Integer, Long>> endOffsets(UUID topicId) {
        return Optional.of(Map.of());
    }

    @Override
    public LogStarts logStarts(Set<Channel> channels) {
        return new LogStarts(Map.of(), Set.of());
    }
}
