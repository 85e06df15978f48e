package io.github.tobyjamesclements.parsley;

import java.util.List;
import java.util.Map;
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

    static void apply(CausalNode node, ProtocolStore.Scope recorded) {
        healFormerSinks(node, recorded.sinks());
        for (Channel gone : difference(recorded.consumed(), node.config.consumed())) {
            shrink(node, gone);
        }
        for (Channel grown : difference(node.config.consumed(), recorded.consumed())) {
            grow(node, grown);
        }
    }

    /** Former sinks: this node's committed sends there stay claimed, through carried ancestry (§16.2). */
    private static void healFormerSinks(CausalNode node, SortedSet<UUID> recordedSinks) {
        for (UUID topic : difference(recordedSinks, node.config.sinkTopics())) {
            Map<Integer, Long> ends = node.brokerOffsets.endOffsets(topic).orElse(Map.of());
            ends.forEach((p, end) -> {
                if (end > 0) {
                    node.carried.advanceTo(new Channel(topic, p), end - 1);
                }
            });
            node.store.putCarried(node.carried);
            log.info("Former sink healed into carried ancestry; node={}, topic={}, partitions={}",
                    node.config.nodeId(), topic, ends.size());
        }
    }

    /** A removed input: its delivered past moves into carried ancestry; held records fail closed. */
    private static void shrink(CausalNode node, Channel gone) {
        HoldQueue q = node.queues.remove(gone);
        if (q != null && !q.isEmpty()) {
            throw new IllegalStateException(q.size() + " held records on removed input; node=" + node.config.nodeId()
                    + ", channel=" + gone + "; redeclare the input or perform a full reset (fail closed)");
        }
        Long f = node.frontier.remove(gone);
        if (f != null && f >= 0) {
            node.carried.advanceTo(gone, f);
        }
        VectorClock cc = node.channelClocks.remove(gone);
        if (cc != null) {
            node.carried.mergeMax(cc);
        }
        List<SeqKey> marks = node.marks.keySet().stream().filter(k -> k.channel().equals(gone)).toList();
        marks.forEach(node.marks::remove);
        node.store.deleteInput(gone, marks);
        node.store.putCarried(node.carried);
        log.info("Input removed from scope; node={}, channel={}, carriedFrontier={}", node.config.nodeId(), gone, f);
    }

    /** A new input starts at the node's own knowledge of it, never at the log start. */
    private static void grow(CausalNode node, Channel grown) {
        VectorClock known = new VectorClock();
        node.frontier.forEach(known::advanceTo);
        node.channelClocks.values().forEach(known::mergeOffsets);
        known.mergeOffsets(node.carried);
        known.mergeOffsets(node.ownOutputs);
        long seed = known.offset(grown);
        if (seed >= 0) {
            node.setFrontier(grown, seed);
            node.resumePositions.put(grown, seed + 1);
        }
        log.info("Input added to scope; node={}, channel={}, seededFrontier={}", node.config.nodeId(), grown, seed);
    }

    private static <T extends Comparable<T>> SortedSet<T> difference(SortedSet<T> a, SortedSet<T> b) {
        SortedSet<T> out = new TreeSet<>(a);
        out.removeAll(b);
        return out;
    }
}
