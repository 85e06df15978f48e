package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One causal node: the receive path, the cascade, density adaptation and the stamping site
 * (protocol.md §3-6), over a {@link NodeState} restored and reconciled at construction (§7).
 *
 * <p>Single-threaded and synchronous: results come back in the order they happened; store writes wait in a buffer
 * for {@link #persist()}. The host must uphold H1-H6 (protocol.md §12.1): it persists right before every commit, and
 * if a call throws, it abandons the step and this node and restarts from committed state through a new one (H3, H5).
 * Decisions a harness may replace come in as {@link NodeSeams}; production passes {@link NodeSeams#NONE}.
 */
final class CausalNode {

    private static final Logger log = LoggerFactory.getLogger(CausalNode.class);

    private final NodeConfig config;
    private final BrokerOffsets brokerOffsets;
    private final NodeSeams seams;
    private final NodeState state;
    private final NodeSeams.Heads heads = new NodeHeads(this);
    private final BiConsumer<Channel, VectorClock> fold;
    private final Gate.Probed probed;
    private final List<Delivery> delivered = new ArrayList<>(); // the cascade's, reused: most calls deliver one or none
    /** The consumed channels in cascade order: the ring the cascade walks, and the gate's consumed set. */
    private final Channel[] order;
    private Channel lastConsumed; // found in order, which never changes: a run of its records skips the scan
    private final StampSite stampSite;
    private long replaysSkipped;

    CausalNode(NodeConfig config, StateStore stateStore, BrokerOffsets brokerOffsets, Map<Channel, Long> committedPositions) {
        this(config, stateStore, brokerOffsets, committedPositions, NodeSeams.NONE);
    }

    /**
     * Restores, seeds own outputs, reconciles a changed declaration, derives frontiers (§7.1); throws
     * {@link IllegalStateException} where init fails closed (§7, §11), {@link CorruptClockException} for a bad stored clock.
     */
    CausalNode(NodeConfig config, StateStore stateStore, BrokerOffsets brokerOffsets,
            Map<Channel, Long> committedPositions, NodeSeams seams) {
        this.config = Objects.requireNonNull(config, "config");
        this.brokerOffsets = Objects.requireNonNull(brokerOffsets, "brokerOffsets");
        this.seams = Objects.requireNonNull(seams, "seams");
        this.order = config.consumed().toArray(new Channel[0]);
        this.state = new NodeState(config.nodeId(), stateStore, config.sequenceBlock(), seams);
        this.fold = state::foldChannelClock;
        this.probed = seams.probed(state::probedDelivered);
        this.stampSite = new StampSite(config, state, seams);
        ProtocolStore.Scope recorded = state.recordedScope();
        Stamping.seedOwnOutputs(config, state, brokerOffsets, seams);
        if (recorded != null) {
            Rescope.apply(config, state, brokerOffsets, seams, recorded);
        }
        config.consumed().forEach(c -> state.deriveFrontier(c, committedPositions.get(c)));
        config.consumed().forEach(state::openInput);
        state.recordScope(config.consumed(), config.sinkTopics());
        state.persist();
        config.consumed().forEach(this::askGate);
        log.info("Causal node initialised; node={}, consumed={}, sinks={}, restoredHolds={}, ownOutputs={}",
                config.nodeId(), config.consumed(), config.sinkTopics().size(), held(), state.ownOutputs().offsets().size());
    }

    /** Feeds one fetched record; returns what the gate released, in causal order. */
    List<Delivery> onRecord(InboundRecord r) {
        return onRecord(HeldEntry.borrowing(r));
    }

    /** {@link #onRecord(InboundRecord)} for an entry the host built ({@link HeldEntry#received}), also its delivery. */
    List<Delivery> onRecord(HeldEntry e) {
        Channel c = e.channel();
        seams.callStarts(fold);
        requireConsumed(c, "Record on unconsumed channel");
        long f = state.frontier(c);
        if (e.offset() <= f) {
            replaysSkipped++;
            if (e.tagged()) {
                // covered by the frontier, it counts for its sender's seq claims: a grown input's prefix (§3.8)
                state.advanceMark(c, e.sender(), e.seq(), e.offset());
                return cascadeAndFinish();
            }
            return List.of();
        }
        boolean queueEmpty = state.held(c) == 0;
        if (!e.clock().isEmpty()) {
            seams.received(c, e.clock(), fold);
        }
        if (seams.deliversOnArrival(c, queueEmpty) && deliverable(c, e)) {
            // the record would be its queue's head, and the gate passes it: no queue entry to undo (§3.4)
            delivered.add(state.deliverArrival(e));
        } else {
            // held at an empty queue, it is the head: the cascade's skip run below it seeds or bridges (§4.1-4.3)
            state.holdBorrowing(e);
        }
        state.notePosition(c, e.offset() + 1);
        return cascadeAndFinish();
    }

    /** Reports that everything below {@code position} on {@code c} was fetched or skipped. */
    List<Delivery> positionAdvance(Channel c, long position) {
        seams.callStarts(fold);
        requireConsumed(c, "Position advance on unconsumed channel");
        boolean queueHolds = state.held(c) > 0;
        if (!seams.takesPosition(c, queueHolds)) {
            return List.of();
        }
        state.notePosition(c, position);
        if (!queueHolds && position - 1 > state.frontier(c)) {
            state.advanceFrontier(c, position - 1);
            return cascadeAndFinish();
        }
        // a probed head on another channel may wait for this position (§3.9)
        return state.anyProbeAnswered() ? cascadeAndFinish() : finish();
    }

    /** The cascade (§3.3): the gate over the heads in a ring until every other channel was visited since the last change. */
    private List<Delivery> cascadeAndFinish() {
        int i = 0;
        for (int unchanged = 0; unchanged != order.length; i = i + 1 == order.length ? 0 : i + 1) {
            unchanged = visit(order[i]) ? 1 : unchanged + 1;
        }
        return finish();
    }

    /** Delivers a channel's deliverable heads and advances its skip run; true when either changed something. */
    private boolean visit(Channel c) {
        boolean changed = false;
        HeldEntry head;
        while ((head = state.head(c)) != null && deliverable(c, head)) {
            seams.deliver(c, heads, delivered);
            changed = true;
        }
        long skipped = head == null ? state.positionKnown(c) - 1 : seams.skipRunBelow(c, head.offset() - 1);
        if (skipped > state.frontier(c)) {
            state.advanceFrontier(c, skipped);
            changed = true;
        }
        return changed;
    }

    /** The (seamed) gate's verdict on an entry of channel {@code c}, against the current state. */
    boolean deliverable(Channel c, HeldEntry entry) {
        return seams.deliverable(c, entry,
                Gate.deliverable(c, entry.offset(), entry.clock(), order, state.frontierClock(), state.marks(), probed));
    }

    /** Gates a restored head, delivering nothing: one that waits on a probe asks for it now (§3.9). */
    private void askGate(Channel c) {
        HeldEntry head = state.head(c);
        if (head != null) {
            deliverable(c, head);
        }
    }

    /** Starts a probe a head wants ({@link NodeState#probesWanted}); read the high watermark after it (H7). */
    Probes.Ticket startProbe(Channel partition) {
        requireConsumed(partition, "Probe of an unconsumed channel");
        return state.startProbe(partition);
    }

    /** A probe's answer; returns what it released. */
    List<Delivery> probeAnswered(Probes.Ticket ticket, long highWatermark) {
        seams.callStarts(fold);
        state.probeAnswered(ticket, highWatermark);
        return cascadeAndFinish();
    }

    /** The {@code vc} header value of a send to a concrete partition ({@link StampSite#encode}). */
    byte[] encodeSend(Channel destination) {
        return stampSite.encode(destination);
    }

    /** {@link #encodeSend}, decoded: for the simulator, tests and diagnostics. */
    SendStamp prepareSend(Channel destination) {
        return ClockCodec.decodeStamp(encodeSend(destination));
    }

    /** The merged stamp before normalisation (§6.1). */
    VectorClock stampBase() {
        return seams.stampBase(state.stampBase(), config.consumed());
    }

    /** Drops stamp-side offset claims at or below a globally stable bound. */
    void truncate(VectorClock stability) {
        state.truncate(stability);
        state.endCall();
    }

    /** Truncates to the log-start bound: {@code logStart − 1}, or everything for absent topics (§8.2). */
    void truncateToLogStarts(Map<Channel, Long> logStarts, Set<Channel> confirmedAbsent) {
        VectorClock bound = new BrokerOffsets.LogStarts(logStarts, confirmedAbsent).bound();
        if (!bound.isEmpty()) {
            truncate(bound);
        }
    }

    /** Truncates to the log starts of {@link NodeState#stampChannels()}, keeping unresolvable topics' claims (§8.2). */
    BrokerOffsets.LogStarts truncateToLogStarts() {
        BrokerOffsets.LogStarts starts = seams.logStarts(state.stampChannels(), brokerOffsets);
        truncateToLogStarts(starts.starts(), starts.confirmedAbsent());
        return starts;
    }

    /** Every held head with its unmet claims; heads with none are omitted (protocol.md §13.3). */
    List<Gate.HeadExplanation> explainHeads() {
        return Gate.explain(config.consumed(), state);
    }

    /** Where a host that can seek should (re)start channels grown into scope. */
    Map<Channel, Long> resumePositions() {
        return state.resumePositions();
    }

    /** Read by diagnostics and tests; changes go through the node's calls. */
    NodeState state() {
        return state;
    }

    /** Records held on every channel (the hold monitor's idle check). */
    int held() {
        return state.held();
    }

    int held(Channel c) {
        return state.held(c);
    }

    /** A channel's queue head's offset, or -1. */
    long heldHead(Channel c) {
        HeldEntry head = state.head(c);
        return head == null ? VectorClock.NOTHING : head.offset();
    }

    /** A channel's last queued record's offset, or -1. */
    long heldTail(Channel c) {
        HeldEntry tail = state.tail(c);
        return tail == null ? VectorClock.NOTHING : tail.offset();
    }

    long replaysSkipped() {
        return replaysSkipped;
    }

    long seqNormalisations() {
        return stampSite.seqNormalisations();
    }

    /** Stamps coarsened to stay under the bound (§10.2) since this node was built. */
    long stampsCoarsened() {
        return stampSite.coarsened();
    }

    long frontier(Channel c) {
        return state.frontier(c);
    }

    /** The highest offset received on a channel: the last held record's, or the frontier. */
    long receivedThrough(Channel c) {
        return Math.max(frontier(c), heldTail(c));
    }

    private void requireConsumed(Channel c, String what) {
        if (c != lastConsumed && !Gate.consumes(order, c)) {
            throw new IllegalStateException(what + "; node=" + config.nodeId() + ", channel=" + c
                    + ", consumed=" + config.consumed());
        }
        lastConsumed = c;
    }

    /** What this node's state reflects now, for reads of it once it commits (§17.1). */
    ReadSnapshot readSnapshot() {
        return ReadSnapshot.of(order, state);
    }

    /** Writes every change since the last persist to the store: the host calls it before each commit (§9.1, H3). */
    void persist() {
        state.persist();
    }

    /** Ends a call: hands out what the cascade delivered, in order; its writes stay buffered. */
    private List<Delivery> finish() {
        // mostly one delivery: List.of(e) skips the array that List.copyOf copies through
        List<Delivery> out = delivered.size() == 1 ? List.of(delivered.get(0)) : List.copyOf(delivered);
        delivered.clear();
        state.endCall();
        return out;
    }
}
