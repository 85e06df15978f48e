package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One causal node: the receive path, the cascade, density adaptation and the stamping site
 * (protocol.md §3-6), over state restored and reconciled at construction (§7).
 *
 * <p>Single-threaded. Every host call ends by flushing its store writes; if a call throws, the
 * host must abandon the step and this instance, and restart from committed state through a new
 * node (H3, H5). The package-private methods that are not final are the seams the simulator's
 * planted faults override; production code never subclasses.
 */
class CausalNode implements DeliveryProtocol {

    private static final Logger log = LoggerFactory.getLogger(CausalNode.class);

    final NodeConfig config;
    final ProtocolStore store;
    final BrokerOffsets brokerOffsets;

    final Map<Channel, Long> frontier;
    final Map<Channel, VectorClock> channelClocks;
    final VectorClock carried;
    final VectorClock ownOutputs = new VectorClock();
    final Map<Channel, HoldQueue> queues;
    final Map<Channel, Long> positionKnown = new TreeMap<>();
    final Map<Channel, Long> sendSeq;
    final Map<Channel, Long> baselineSeq;
    final Map<SeqKey, ProtocolStore.Mark> marks;
    final Map<Channel, Long> resumePositions = new TreeMap<>();

    private long replaysSkipped;
    private long seqNormalisations;

    /**
     * Restores the node from the store, seeds its own outputs from the broker and reconciles a
     * changed declaration (protocol.md §7.1).
     *
     * @throws IllegalStateException when a sink cannot be resolved, a removed input still holds
     *     records, or a hold queue restores fewer entries than it claims
     * @throws CorruptClockException when a stored clock cannot be decoded
     */
    CausalNode(NodeConfig config, StateStore stateStore, BrokerOffsets brokerOffsets) {
        this.config = Objects.requireNonNull(config, "config");
        this.store = new ProtocolStore(stateStore);
        this.brokerOffsets = Objects.requireNonNull(brokerOffsets, "brokerOffsets");
        ProtocolStore.Scope recorded = store.scope();
        this.frontier = store.frontiers();
        this.channelClocks = store.channelClocks();
        this.sendSeq = store.sendSeqs();
        this.baselineSeq = Map.copyOf(sendSeq);
        this.marks = store.marks();
        this.queues = store.queues();
        this.carried = store.carried();
        seedOwnOutputs();
        if (recorded != null) {
            Rescope.apply(this, recorded);
        }
        for (Channel c : config.consumed()) {
            queues.computeIfAbsent(c, HoldQueue::new);
            channelClocks.computeIfAbsent(c, x -> new VectorClock());
        }
        store.putScope(config.consumed(), config.sinkTopics());
        store.flush();
        int held = queues.values().stream().mapToInt(HoldQueue::size).sum();
        log.info("Causal node initialised; node={}, consumed={}, sinks={}, restoredHolds={}, ownOutputs={}",
                config.nodeId(), config.consumed(), config.sinkTopics().size(), held, ownOutputs.offsets().size());
    }

    /** The init end-offset seed (protocol.md §6.4, §16.1): every declared sink's high watermark minus one. */
    void seedOwnOutputs() {
        for (UUID topic : config.sinkTopics()) {
            Map<Integer, Long> ends = brokerOffsets.endOffsets(topic).orElseThrow(() -> new IllegalStateException(
                    "Cannot resolve sink end offsets; node=" + config.nodeId() + ", topic=" + topic
                            + "; the declared sink topic does not exist: create it before starting the stage"));
            ends.forEach((p, end) -> {
                if (end > 0) {
                    ownOutputs.advanceTo(new Channel(topic, p), end - 1);
                }
            });
        }
    }

    // Receive path ------------------------------------------------------------------------

    @Override
    public List<Delivery> onRecord(InboundRecord r) {
        Channel c = r.channel();
        HoldQueue q = consumedQueue(c, "Record on unconsumed channel");
        long f = frontier(c);
        if (r.offset() <= f) {
            replaysSkipped++;
            if (r.tagged()) {
                // A replayed record is covered by the frontier: it counts for its sender's sequence
                // claims, so a grown input's prefix can satisfy claims on it (protocol.md §3.8).
                advanceMark(c, r.sender(), r.senderSeq(), r.offset());
                return finish(cascade());
            }
            return List.of();
        }
        if (q.isEmpty() && r.offset() - 1 > f) {
            setFrontier(c, r.offset() - 1);
        }
        if (r.clock() != null && !r.clock().isEmpty()) {
            foldReceived(c, r.clock());
        }
        q.enqueue(HeldEntry.of(r), store);
        positionKnown.merge(c, r.offset() + 1, Math::max);
        return finish(cascade());
    }

    /** Folds a received clock into the channel's advertised clock: at receive, not delivery (§3.7). */
    void foldReceived(Channel c, VectorClock clock) {
        VectorClock cc = channelClocks.get(c);
        cc.mergeMax(clock);
        store.putChannelClock(c, cc);
    }

    @Override
    public List<Delivery> positionAdvance(Channel c, long position) {
        HoldQueue q = consumedQueue(c, "Position advance on unconsumed channel");
        positionKnown.merge(c, position, Math::max);
        if (q.isEmpty() && position - 1 > frontier(c)) {
            setFrontier(c, position - 1);
            return finish(cascade());
        }
        return finish(List.of());
    }

    /** Runs the gate over every head until a full pass changes nothing (protocol.md §3.3). */
    List<Delivery> cascade() {
        List<Delivery> out = new ArrayList<>();
        boolean changed;
        do {
            changed = false;
            for (Channel c : config.consumed()) {
                HoldQueue q = queues.get(c);
                while (!q.isEmpty() && deliverable(c, q.head())) {
                    deliver(c, q, out);
                    changed = true;
                }
                long skipped = q.isEmpty() ? positionKnown.getOrDefault(c, 0L) - 1 : skipRunBelow(q);
                if (skipped > frontier(c)) {
                    setFrontier(c, skipped);
                    changed = true;
                }
            }
        } while (changed);
        return out;
    }

    /** The highest offset known skipped below a non-empty queue's head (protocol.md §4.3). */
    long skipRunBelow(HoldQueue q) {
        return q.head().offset() - 1;
    }

    boolean deliverable(Channel c, HeldEntry head) {
        return Gate.deliverable(c, head.clock(), config.consumed(), frontier, marks);
    }

    /** Pops the head, advances the frontier and the sender's mark, and records the delivery (§3.2 rule 6). */
    void deliver(Channel c, HoldQueue q, List<Delivery> out) {
        HeldEntry e = q.pop(store);
        if (e.offset() > frontier(c)) {
            setFrontier(c, e.offset());
        }
        if (e.tagged()) {
            advanceMark(c, e.sender(), e.seq(), e.offset());
        }
        out.add(new Delivery(c, e.offset(), e.key(), e.value(), e.timestamp(), e.headers()));
    }

    /** Raises the delivered-sequence mark of {@code (c, sender)} to {@code seq} (§3.2 rule 6). */
    private void advanceMark(Channel c, UUID sender, long seq, long offset) {
        SeqKey k = new SeqKey(c, sender);
        ProtocolStore.Mark mark = marks.get(k);
        if (mark == null || seq > mark.seq()) {
            ProtocolStore.Mark next = new ProtocolStore.Mark(seq, offset);
            marks.put(k, next);
            store.putMark(k, next);
        }
    }

    // Stamp -------------------------------------------------------------------------------

    @Override
    public SendStamp prepareSend(Channel destination) {
        Objects.requireNonNull(destination, "Send destination is null: the host partitions before stamping");
        if (!config.sinkTopics().contains(destination.topicId())) {
            throw new IllegalStateException("Send to undeclared sink topic; node=" + config.nodeId()
                    + ", destination=" + destination + ", declared sinks=" + config.sinkTopics());
        }
        VectorClock stamp = stampBase();
        seqNormalisations += Stamping.normalize(stamp, this);
        sendSeq.forEach((c, issued) -> {
            if (issued > baselineSeq.getOrDefault(c, VectorClock.NOTHING)) {
                stamp.advanceSeq(new SeqKey(c, config.senderId()), issued);
            }
        });
        long seq = sendSeq.getOrDefault(destination, VectorClock.NOTHING) + 1;
        sendSeq.put(destination, seq);
        store.putSendSeq(destination, seq);
        store.flush();
        return new SendStamp(stamp, config.senderId(), seq);
    }

    /** {@code frontier ∪ channelClocks ∪ carriedAncestry ∪ ownOutputs}, before normalisation (§6.1). */
    VectorClock stampBase() {
        VectorClock stamp = new VectorClock();
        frontier.forEach(stamp::advanceTo);
        channelClocks.values().forEach(stamp::mergeMax);
        stamp.mergeMax(carried);
        stamp.mergeMax(ownOutputs);
        return stamp;
    }

    // Truncation --------------------------------------------------------------------------

    @Override
    public void truncate(VectorClock stability) {
        if (carried.truncateAtOrBelow(stability)) {
            store.putCarried(carried);
        }
        channelClocks.forEach((c, cc) -> {
            if (cc.truncateAtOrBelow(stability)) {
                store.putChannelClock(c, cc);
            }
        });
        store.flush();
    }

    @Override
    public Set<Channel> stampChannels() {
        Set<Channel> out = new TreeSet<>(carried.offsets().keySet());
        channelClocks.values().forEach(cc -> out.addAll(cc.offsets().keySet()));
        return out;
    }

    /** Truncates to the log-start bound: {@code logStart − 1}, or everything for absent topics (§8.2). */
    void truncateToLogStarts(Map<Channel, Long> logStarts, Set<Channel> confirmedAbsent) {
        VectorClock bound = new VectorClock();
        logStarts.forEach((c, start) -> {
            if (start > 0) {
                bound.advanceTo(c, start - 1);
            }
        });
        confirmedAbsent.forEach(c -> bound.advanceTo(c, Long.MAX_VALUE));
        if (!bound.isEmpty()) {
            truncate(bound);
        }
    }

    /**
     * Queries the broker for the log starts of {@link #stampChannels()} and truncates to them.
     * Claims on topics that cannot be resolved are kept: only proven absence drops them.
     *
     * @return what the broker answered, for the host to report unresolved topics
     */
    BrokerOffsets.LogStarts truncateToLogStarts() {
        BrokerOffsets.LogStarts starts = brokerOffsets.logStarts(stampChannels());
        truncateToLogStarts(starts.starts(), starts.confirmedAbsent());
        return starts;
    }

    // Diagnostics and views ---------------------------------------------------------------

    /** Every held head with its unmet claims; heads with none are omitted (protocol.md §13.3). */
    List<Gate.HeadExplanation> explainHeads() {
        List<Gate.HeadExplanation> out = new ArrayList<>();
        for (Channel c : config.consumed()) {
            HoldQueue q = queues.get(c);
            if (!q.isEmpty()) {
                List<Gate.Unmet> unmet = Gate.unmet(c, q.head().clock(), config.consumed(), frontier, marks,
                        positionKnown);
                if (!unmet.isEmpty()) {
                    out.add(new Gate.HeadExplanation(c, q.head().offset(), q.size(), unmet));
                }
            }
        }
        return out;
    }

    @Override
    public Map<Channel, Long> resumePositions() {
        return Collections.unmodifiableMap(resumePositions);
    }

    int held() {
        int n = 0;
        for (Channel c : config.consumed()) {
            n += queues.get(c).size();
        }
        return n;
    }

    int held(Channel c) {
        HoldQueue q = queues.get(c);
        return q == null ? 0 : q.size();
    }

    /** The offset of a channel's queue head, or -1 when nothing is queued there. */
    long heldHead(Channel c) {
        HoldQueue q = queues.get(c);
        HeldEntry head = q == null ? null : q.head();
        return head == null ? VectorClock.NOTHING : head.offset();
    }

    /** The offset of a channel's last queued record, or -1 when nothing is queued there. */
    long heldTail(Channel c) {
        HoldQueue q = queues.get(c);
        HeldEntry tail = q == null ? null : q.tail();
        return tail == null ? VectorClock.NOTHING : tail.offset();
    }

    long replaysSkipped() {
        return replaysSkipped;
    }

    long seqNormalisations() {
        return seqNormalisations;
    }

    long frontier(Channel c) {
        return frontier.getOrDefault(c, VectorClock.NOTHING);
    }

    /** The highest offset this node has received on a channel: the last held record's, or the frontier. */
    long receivedThrough(Channel c) {
        HoldQueue q = queues.get(c);
        HeldEntry tail = q == null ? null : q.tail();
        return tail == null ? frontier(c) : Math.max(frontier(c), tail.offset());
    }

    void setFrontier(Channel c, long f) {
        frontier.put(c, f);
        store.putFrontier(c, f);
    }

    private HoldQueue consumedQueue(Channel c, String what) {
        if (!config.consumed().contains(c)) {
            throw new IllegalStateException(what + "; node=" + config.nodeId() + ", channel=" + c
                    + ", consumed=" + config.consumed());
        }
        return queues.get(c);
    }

    private List<Delivery> finish(List<Delivery> deliveries) {
        store.flush();
        return deliveries;
    }
}
