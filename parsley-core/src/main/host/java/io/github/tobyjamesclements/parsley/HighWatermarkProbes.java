package io.github.tobyjamesclements.parsley;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The host duty H7 (protocol.md §3.9, §12.1): reads the high watermark of each consumed partition a
 * held head wants probed, after starting the probe, and hands it back to the node. The read is the
 * topic's end offsets from the catalog, the read-uncommitted end that the own-output seed uses too
 * (§6.4), one request per topic. Run at most every {@link #INTERVAL_NANOS} after a record, and at every
 * sweep, so a stage whose heads wait on probes pays one round trip per interval, not per record.
 *
 * <p>A read that fails is logged and its partition probed again at the next run: its probe is never
 * answered. Broker-less test wiring answers no end
 * offsets, so its probes are never answered.
 */
final class HighWatermarkProbes {

    private static final Logger log = LoggerFactory.getLogger(HighWatermarkProbes.class);
    static final long INTERVAL_NANOS = 5_000_000L;

    private final String stage;
    private final CausalNode node;
    private final BrokerOffsets offsets;
    private long lastRun = System.nanoTime() - INTERVAL_NANOS;
    private long failures;
    /** Partitions whose last read failed: their probes were never answered, and are started again next run. */
    private final Set<Channel> retry = new TreeSet<>();

    HighWatermarkProbes(String stage, CausalNode node, BrokerOffsets offsets) {
        this.stage = stage;
        this.node = node;
        this.offsets = offsets;
    }

    /** Probes after a record, unless the last run was within the interval. */
    void afterRecord(Consumer<List<Delivery>> handle) {
        if (pending() && System.nanoTime() - lastRun >= INTERVAL_NANOS) {
            run(handle);
        }
    }

    /** Whether a probe is wanted or a failed read is to be retried: work for the next run. */
    boolean pending() {
        return !retry.isEmpty() || !node.state().probesWanted().isEmpty();
    }

    /** Probes every partition wanted now; each answer's deliveries go to {@code handle}. */
    void run(Consumer<List<Delivery>> handle) {
        Set<Channel> wanted = new TreeSet<>(node.state().probesWanted());
        wanted.addAll(retry);
        retry.clear();
        if (wanted.isEmpty()) {
            return;
        }
        lastRun = System.nanoTime();
        Map<Channel, Probes.Ticket> tickets = new HashMap<>();
        wanted.forEach(c -> tickets.put(c, node.startProbe(c)));
        Map<UUID, Map<Integer, Long>> ends = new HashMap<>();
        for (Map.Entry<Channel, Probes.Ticket> e : tickets.entrySet()) {
            Channel c = e.getKey();
            Long end;
            try {
                end = ends.computeIfAbsent(c.topicId(), t -> offsets.endOffsets(t).orElse(Map.of())).get(c.partition());
            } catch (RuntimeException failure) {
                failures++;
                retry.add(c);
                log.warn("High watermark probe failed, retried at the next run; stage={}, channel={}, failures={}: {}",
                        stage, c, failures, failure.toString());
                continue;
            }
            if (end != null) {
                handle.accept(node.probeAnswered(e.getValue(), end));
            }
        }
    }
}
