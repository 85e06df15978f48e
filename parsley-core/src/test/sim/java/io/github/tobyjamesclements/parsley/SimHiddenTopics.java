package io.github.tobyjamesclements.parsley;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;

/**
 * One node's view of the simulated broker when its principal may not describe some topics, which
 * other nodes see. It answers as the production catalog answers for such a topic (Kafka tells a
 * hidden topic id apart from a deleted one only by name, and the name is denied too,
 * docs/protocol-decisions.md "Unresolvable topics keep their claims"): its channels are
 * {@linkplain BrokerOffsets.LogStarts#unresolved() unresolved} in log starts, and end offsets are
 * not known (thrown), never proven absent. Every other topic is answered by the broker's view.
 */
final class SimHiddenTopics implements BrokerOffsets {

    private final BrokerOffsets visible;
    private final SortedSet<UUID> hidden;
    private final Function<UUID, String> names;

    SimHiddenTopics(BrokerOffsets visible, Set<UUID> hidden, Function<UUID, String> names) {
        this.visible = visible;
        this.hidden = Collections.unmodifiableSortedSet(new TreeSet<>(hidden));
        this.names = names;
    }

    @Override
    public Optional<Map<Integer, Long>> endOffsets(UUID topicId) {
        if (hidden.contains(topicId)) {
            throw new IllegalStateException("Cannot resolve topic id " + topicId + ": this principal may not DESCRIBE"
                    + " topic " + names.apply(topicId) + " (simulated authorization)");
        }
        return visible.endOffsets(topicId);
    }

    @Override
    public LogStarts logStarts(Set<Channel> channels) {
        Set<Channel> seen = new TreeSet<>();
        Set<Channel> unresolved = new TreeSet<>();
        for (Channel c : channels) {
            (hidden.contains(c.topicId()) ? unresolved : seen).add(c);
        }
        LogStarts answer = visible.logStarts(seen);
        unresolved.addAll(answer.unresolved());
        return new LogStarts(new TreeMap<>(answer.starts()), new TreeSet<>(answer.confirmedAbsent()), unresolved);
    }
}
