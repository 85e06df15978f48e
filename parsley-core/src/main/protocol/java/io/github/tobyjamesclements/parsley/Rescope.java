package io.github.tobyjamesclements.parsley;

import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles restored state with a changed declaration (protocol.md §7.2): delivered or carried
 * causal past may be skipped, never dropped, never re-entered. Runs once per change; its writes
 * are idempotent, so a crash before the first commit repeats it.
 */
final class Rescope {

    private static final Logger log = LoggerFactory.getLogger(Rescope.class);

    private Rescope() {
    }

    static void apply(NodeConfig config, NodeState state, BrokerOffsets broker, NodeSeams seams,
            ProtocolStore.Scope recorded) {
        healFormerSinks(config, state, broker, recorded.sinks());
        for (Channel gone : difference(recorded.consumed(), config.consumed())) {
            boolean delivered = state.deliveredOn(gone);
            Long f = state.retireInput(gone);
            if (delivered) {
                healRemovedInput(state, seams.removedInputEnds(gone.topicId(), broker), gone);
            }
            log.info("Input removed from scope; node={}, channel={}, carriedFloor={}", config.nodeId(), gone, f);
        }
        for (Channel grown : difference(config.consumed(), recorded.consumed())) {
            grow(config, state, grown);
        }
    }

    /** Former sinks: this node's committed sends there stay claimed, through carried ancestry (§16.2). */
    private static void healFormerSinks(NodeConfig config, NodeState state, BrokerOffsets broker,
            SortedSet<UUID> recordedSinks) {
        for (UUID topic : difference(recordedSinks, config.sinkTopics())) {
            Map<Integer, Long> ends = broker.endOffsets(topic).orElse(Map.of());
            VectorClock sent = new VectorClock();
            ends.forEach((p, end) -> {
                if (end > 0) {
                    sent.advanceTo(new Channel(topic, p), end - 1);
                }
            });
            state.carry(sent);
            log.info("Former sink healed into carried ancestry; node={}, topic={}, partitions={}",
                    config.nodeId(), topic, ends.size());
        }
    }

    /**
     * A removed input's frontier is not persisted and no longer derivable (its position is not
     * the new scope's), so what this node delivered there is claimed at the channel's high
     * watermark minus one, an appended offset at or above it (§7.2 step 2); a topic proven gone
     * yields nothing.
     */
    private static void healRemovedInput(NodeState state, Optional<Map<Integer, Long>> ends, Channel gone) {
        Long end = ends.orElse(Map.of()).get(gone.partition());
        if (end != null && end > 0) {
            VectorClock delivered = new VectorClock();
            delivered.advanceTo(gone, end - 1);
            state.carry(delivered);
        }
    }

    /** A new input starts at the node's own knowledge of it, never at the log start. */
    private static void grow(NodeConfig config, NodeState state, Channel grown) {
        long seed = state.knownOffset(grown);
        if (seed >= 0) {
            state.seedInput(grown, seed);
        }
        log.info("Input added to scope; node={}, channel={}, seededFrontier={}", config.nodeId(), grown, seed);
    }

    private static <T extends Comparable<T>> SortedSet<T> difference(SortedSet<T> a, SortedSet<T> b) {
        SortedSet<T> out = new TreeSet<>(a);
        out.removeAll(b);
        return out;
    }
}
