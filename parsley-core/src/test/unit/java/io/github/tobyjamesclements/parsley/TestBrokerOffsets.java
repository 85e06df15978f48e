package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * A stub {@link BrokerOffsets} for unit tests: high watermarks per topic partition and log starts
 * per channel (0 unless set). A topic exists once any of its offsets was set; a hidden topic may
 * exist but cannot be seen; every other topic is one the broker confirms absent.
 */
final class TestBrokerOffsets implements BrokerOffsets {

    private final Map<UUID, Map<Integer, Long>> ends = new TreeMap<>();
    private final Map<Channel, Long> logStarts = new TreeMap<>();
    private final Set<UUID> hidden = new TreeSet<>();
    private final List<Set<Channel>> logStartQueries = new ArrayList<>();

    /** Creates a topic whose partitions {@code 0..partitions-1} are all empty. */
    TestBrokerOffsets topic(UUID topic, int partitions) {
        Map<Integer, Long> byPartition = ends.computeIfAbsent(topic, t -> new TreeMap<>());
        for (int p = 0; p < partitions; p++) {
            byPartition.putIfAbsent(p, 0L);
        }
        return this;
    }

    /** Sets the high watermark of one partition, creating its topic if needed. */
    TestBrokerOffsets end(Channel c, long end) {
        ends.computeIfAbsent(c.topicId(), t -> new TreeMap<>()).put(c.partition(), end);
        return this;
    }

    /** Sets the log start of one partition, creating its topic if needed. */
    TestBrokerOffsets logStart(Channel c, long start) {
        ends.computeIfAbsent(c.topicId(), t -> new TreeMap<>()).putIfAbsent(c.partition(), start);
        logStarts.put(c, start);
        return this;
    }

    /** Deletes a topic: the broker now confirms it absent. */
    TestBrokerOffsets delete(UUID topic) {
        ends.remove(topic);
        return this;
    }

    /** Hides a topic: it cannot be seen (as a topic the principal may not describe). */
    TestBrokerOffsets hide(UUID topic) {
        hidden.add(topic);
        return this;
    }

    /** The channel sets {@link #logStarts(Set)} was asked about, in call order. */
    List<Set<Channel>> logStartQueries() {
        return logStartQueries;
    }

    @Override
    public Optional<Map<Integer, Long>> endOffsets(UUID topicId) {
        if (hidden.contains(topicId)) {
            throw new IllegalStateException("Cannot see topic id " + topicId);
        }
        Map<Integer, Long> byPartition = ends.get(topicId);
        return byPartition == null ? Optional.empty() : Optional.of(Map.copyOf(byPartition));
    }

    @Override
    public LogStarts logStarts(Set<Channel> channels) {
        logStartQueries.add(new TreeSet<>(channels));
        Map<Channel, Long> starts = new TreeMap<>();
        Set<Channel> absent = new TreeSet<>();
        Set<Channel> unresolved = new TreeSet<>();
        for (Channel c : channels) {
            if (hidden.contains(c.topicId())) {
                unresolved.add(c);
            } else if (ends.containsKey(c.topicId())) {
                starts.put(c, logStarts.getOrDefault(c, 0L));
            } else {
                absent.add(c);
            }
        }
        return new LogStarts(starts, absent, unresolved);
    }
}
