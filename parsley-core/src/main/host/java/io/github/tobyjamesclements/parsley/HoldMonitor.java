package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Times the holds of one task on the host's wall clock, which the protocol never reads
 * (protocol.md §13.3). A record's hold starts when the host feeds it and the node queues it
 * instead of delivering it, and ends when it is delivered; records restored held from the store
 * start their hold at restore. After every step it records the hold gauges whose values changed
 * (ages are computed when read) and, when a head changed, publishes the payload-free snapshot of
 * held heads; on the 500 ms sweep, which runs while records are held, it refreshes that snapshot
 * and logs one warning per head once it has been held for {@code holdWarningAfter}.
 */
final class HoldMonitor {

    private static final Logger log = LoggerFactory.getLogger(HoldMonitor.class);

    private final String stage;
    private final String taskId;
    private final CausalNode node;
    private final TopicCatalog catalog;
    private final Map<Channel, String> topics;
    private final Duration warnAfter;
    private final HoldBoard board;
    private final StageMetrics metrics;
    private final LongSupplier clock;
    private final Map<Channel, ChannelHolds> holds = new HashMap<>();
    /** The same holds as an array: walked after every step without an iterator or a lookup per channel. */
    private final ChannelHolds[] walk;
    /** This task's key on the hold board, built once rather than at every publish. */
    private final String boardKey;
    /** The head offset last warned about, per topic: one warning per head. */
    private final Map<String, Long> warned = new HashMap<>();
    /** Whether the last step left nothing held and no hold start remembered: then an idle node needs no walk. */
    private boolean idle;
    private int heldReported = -1;
    private long oldestReported = StageMetrics.NO_HOLD;

    HoldMonitor(String stage, String taskId, CausalNode node, TopicCatalog catalog, Map<Channel, String> topics,
            Duration warnAfter, HoldBoard board, StageMetrics metrics, LongSupplier clock) {
        this.stage = stage;
        this.taskId = taskId;
        this.node = node;
        this.catalog = catalog;
        this.topics = topics;
        this.warnAfter = warnAfter;
        this.board = board;
        this.metrics = metrics;
        this.clock = clock;
        this.boardKey = stage + "/" + taskId;
        this.walk = new ChannelHolds[topics.size()];
        long now = clock.getAsLong();
        int i = 0;
        for (Map.Entry<Channel, String> t : topics.entrySet()) {
            ChannelHolds h = new ChannelHolds(t.getKey(), t.getValue());
            long tail = node.heldTail(t.getKey());
            if (tail >= 0) {
                h.runs.addLast(new long[] {tail, now});
            }
            holds.put(t.getKey(), h);
            walk[i++] = h;
        }
        afterStep();
    }

    /**
     * The hold starts of one channel as runs {@code {through offset, hold start}}: every queued
     * record above the previous run's offset and at or below this one was held from that start.
     * The queue is FIFO in offset order, so the first run always covers the head.
     */
    private static final class ChannelHolds {

        final Channel channel;
        final String topic;
        final ArrayDeque<long[]> runs = new ArrayDeque<>();
        long head = VectorClock.NOTHING;
        int held;

        ChannelHolds(Channel channel, String topic) {
            this.channel = channel;
            this.topic = topic;
        }
    }

    /** Brings the hold starts and gauges up to date with the node after a step; cheap when nothing changed. */
    void afterStep() {
        if (idle && node.held() == 0) {
            return;
        }
        boolean headChanged = false;
        boolean nowIdle = true;
        boolean countChanged = false;
        long now = StageMetrics.NO_HOLD;
        for (ChannelHolds h : walk) {
            Channel c = h.channel;
            long head = node.heldHead(c);
            while (!h.runs.isEmpty() && (head < 0 || h.runs.peekFirst()[0] < head)) {
                h.runs.removeFirst();
            }
            long tail = node.heldTail(c);
            // The host feeds one record per step: only the tail can be newly held.
            if (tail >= 0 && (h.runs.isEmpty() || h.runs.peekLast()[0] < tail)) {
                now = now < 0 ? clock.getAsLong() : now;
                extendRuns(h, tail, now);
            }
            int held = node.held(c);
            if (head != h.head || held != h.held) {
                headChanged |= head != h.head;
                countChanged = true;
                h.head = head;
                h.held = held;
                metrics.holdsOn(h.topic, held, heldSince(h));
            }
            nowIdle &= held == 0 && h.runs.isEmpty();
        }
        idle = nowIdle;
        if (countChanged) {
            reportTaskHolds();
        }
        if (headChanged) {
            publish();
        }
    }

    /** The 500 ms sweep, run while records are held: refreshes the snapshot's queue lengths and claims, warns. */
    void sweep() {
        afterStep();
        List<HoldBoard.Head> heads = publish();
        long now = clock.getAsLong();
        for (HoldBoard.Head head : heads) {
            warnOnce(head.at(now));
        }
    }

    private void reportTaskHolds() {
        int held = 0;
        long oldest = Long.MAX_VALUE;
        for (ChannelHolds h : walk) {
            held += h.held;
            long since = heldSince(h);
            if (since >= 0) {
                oldest = Math.min(oldest, since);
            }
        }
        oldest = oldest == Long.MAX_VALUE ? StageMetrics.NO_HOLD : oldest;
        if (held != heldReported || oldest != oldestReported) {
            metrics.holds(held, oldest);
            heldReported = held;
            oldestReported = oldest;
        }
    }

    /**
     * Records that the queue through {@code tail} is held from {@code now}. Records held in the
     * same millisecond as the last run's extend it: one array per millisecond, not per record.
     */
    private static void extendRuns(ChannelHolds h, long tail, long now) {
        long[] last = h.runs.peekLast();
        if (last != null && last[1] == now) {
            last[0] = tail;
        } else {
            h.runs.addLast(new long[] {tail, now});
        }
    }

    private static long heldSince(ChannelHolds h) {
        long[] first = h.runs.peekFirst();
        return first == null ? StageMetrics.NO_HOLD : first[1];
    }

    private List<HoldBoard.Head> publish() {
        List<HoldBoard.Head> heads = new ArrayList<>();
        for (Gate.HeadExplanation head : node.explainHeads()) {
            heads.add(new HoldBoard.Head(stage, taskId, topics.get(head.channel()), head.channel().partition(),
                    head.offset(), heldSince(holds.get(head.channel())), head.queued(), claims(head, catalog)));
        }
        if (!warned.isEmpty()) {
            warned.keySet().retainAll(heads.stream().map(HoldBoard.Head::topic).toList());
        }
        board.publish(boardKey, heads);
        return heads;
    }

    /** The unmet claims of a held head, named by topic for readers outside the protocol. */
    static List<HeldRecord.UnmetClaim> claims(Gate.HeadExplanation head, TopicCatalog catalog) {
        return head.unmet().stream().map(u -> new HeldRecord.UnmetClaim(u.diagnosis(),
                catalog.nameOf(u.channel().topicId()), u.channel().partition(),
                u.sender() == null ? null : u.sender().toString(), u.claimed(), u.local())).toList();
    }

    /**
     * How long the record at {@code offset} of {@code channel} has been held, on this monitor's
     * clock; zero if it is not held. Valid until the next {@link #afterStep}, which forgets the
     * hold starts of records delivered in the step.
     */
    Duration heldFor(Channel channel, long offset) {
        ChannelHolds h = holds.get(channel);
        if (h != null) {
            for (long[] run : h.runs) {
                if (run[0] >= offset) {
                    return Duration.ofMillis(Math.max(0, clock.getAsLong() - run[1]));
                }
            }
        }
        return Duration.ZERO;
    }

    private void warnOnce(HeldRecord h) {
        if (warnAfter.isZero() || warnAfter.isNegative() || h.heldFor().compareTo(warnAfter) < 0) {
            return;
        }
        Long previous = warned.put(h.topic(), h.offset());
        if (previous == null || previous != h.offset()) {
            HeldRecord.UnmetClaim first = h.unmetClaims().get(0);
            log.warn("{}: record held for {} ms; stage={}, task={}, topic={}, partition={}, offset={}, queued={},"
                    + " waiting for {}-{} {} {} (local {}), unmet claims={}", first.diagnosis().code(),
                    h.heldFor().toMillis(), stage, taskId, h.topic(), h.partition(), h.offset(), h.queued(),
                    first.topic(), first.partition(), first.sender() == null ? "offset" : "sequence of sender "
                    + first.sender(), first.claimed(), first.local(), h.unmetClaims().size());
        }
    }

    void close() {
        board.remove(boardKey);
    }
}
