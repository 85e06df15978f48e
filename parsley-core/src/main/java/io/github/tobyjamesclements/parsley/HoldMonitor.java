package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one task's held heads on the 500 ms punctuator (protocol.md §13.3): ages each head from
 * the first sample that saw it, publishes a payload-free snapshot, samples the gauges, and logs
 * one warning per head once it has been held for {@code holdWarningAfter}.
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
    private final Map<Channel, long[]> headSince = new HashMap<>();
    private final Map<Channel, Long> warned = new HashMap<>();

    HoldMonitor(String stage, String taskId, CausalNode node, TopicCatalog catalog, Map<Channel, String> topics,
            Duration warnAfter, HoldBoard board, StageMetrics metrics) {
        this.stage = stage;
        this.taskId = taskId;
        this.node = node;
        this.catalog = catalog;
        this.topics = topics;
        this.warnAfter = warnAfter;
        this.board = board;
        this.metrics = metrics;
    }

    void sample(long now) {
        List<HeldRecord> heads = new ArrayList<>();
        long maxAge = 0;
        Map<Channel, Gate.HeadExplanation> byChannel = new HashMap<>();
        node.explainHeads().forEach(h -> byChannel.put(h.channel(), h));
        for (Map.Entry<Channel, String> t : topics.entrySet()) {
            Channel c = t.getKey();
            Gate.HeadExplanation head = byChannel.get(c);
            long age = 0;
            if (head == null) {
                headSince.remove(c);
                warned.remove(c);
            } else {
                long[] since = headSince.get(c);
                if (since == null || since[0] != head.offset()) {
                    since = new long[] {head.offset(), now};
                    headSince.put(c, since);
                }
                age = now - since[1];
                heads.add(describe(t.getValue(), head, age));
                warnOnce(c, heads.get(heads.size() - 1));
            }
            maxAge = Math.max(maxAge, age);
            metrics.sampleTopic(t.getValue(), node.held(c), age);
        }
        board.publish(stage + "/" + taskId, heads);
        VectorClock base = node.stampBase();
        metrics.sample(node.held(), maxAge, base.offsets().size(), base.seqs().size());
    }

    private HeldRecord describe(String topic, Gate.HeadExplanation head, long age) {
        List<HeldRecord.UnmetClaim> claims = head.unmet().stream().map(u -> new HeldRecord.UnmetClaim(
                u.diagnosis(), catalog.nameOf(u.channel().topicId()), u.channel().partition(),
                u.sender() == null ? null : u.sender().toString(), u.claimed(), u.local())).toList();
        return new HeldRecord(stage, taskId, topic, head.channel().partition(), head.offset(), Duration.ofMillis(age),
                head.queued(), claims);
    }

    private void warnOnce(Channel c, HeldRecord h) {
        if (warnAfter.isZero() || warnAfter.isNegative() || h.heldFor().compareTo(warnAfter) < 0) {
            return;
        }
        Long previous = warned.put(c, h.offset());
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
        board.remove(stage + "/" + taskId);
    }
}
