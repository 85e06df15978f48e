package io.github.tobyjamesclements.parsley;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** {@link BrokerOffsets} answering that every sink topic exists with one empty partition. */
final class EmptySinkOffsets implements BrokerOffsets {

    @Override
    public Optional<Map<Integer, Long>> endOffsets(UUID topicId) {
        return Optional.of(Map.of(0, 0L));
    }

    @Override
    public LogStarts logStarts(Set<Channel> channels) {
        return new LogStarts(Map.of(), Set.of());
    }
}
