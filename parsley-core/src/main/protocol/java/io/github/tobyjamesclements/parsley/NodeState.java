package io.github.tobyjamesclements.parsley;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.BiConsumer;

/**
 * The per-node state of protocol.md §2, and its only owner: frontier, channel clocks, carried
 * ancestry, own outputs, hold queues, known positions, send sequences and delivered-sequence marks.
 *
 * <p>Every change goes through one method that updates memory and the {@link ProtocolStore}
 * together, so a caller cannot change one and forget the other. Two values are not written on
 * every change: the frontier is derived at restart from the committed consumer position and the
 * hold queue, with only a floor persisted (protocol.md §7.1), and the send sequence is bounded by
 * a reserved ceiling written once per block (§6.2). Values the protocol says only
 * grow (a frontier, a send sequence) are checked on every change: a change that would not grow
 * one throws {@link IllegalStateException} naming the node and channel, because carrying on would
 * deliver twice or reuse a sequence number. Reads hand out read-only views or copies.
 *
 * <p>Single-threaded, like the node that holds it. Writes are buffered across calls and reach the
 * store only at {@link #persist()}, which the host calls right before it commits (protocol.md
 * §9.1): a key changed by a thousand calls between two commits is written once.
 */
final class NodeState {

    private final String nodeId;
    private final ProtocolStore store;
    /** The frontier as an offset clock: raised per record without boxing, read by the gate per claim. */
    private final VectorClock frontier = new VectorClock();
    /**
     * Per consumed channel, its queue, channel clock, known position, delivered flag and mark key,
     * in channel order (the order the store restores them in).
     */
    private final Map<Channel, ConsumedChannel> inputs = new TreeMap<>();
    /**
     * The consumed channels' instances as the node's configuration names them, and their entries:
     * a task's records and cascade pass these very instances, found by reference in a scan of a
     * few entries instead of a map lookup; any other instance falls back to {@link #inputs}.
     */
    private Channel[] openedChannels = {};
    private ConsumedChannel[] opened = {};
    private final VectorClock carried;
    private final VectorClock ownOutputs = new VectorClock();
    private final VectorClock sinkEnds = new VectorClock();
    /** The sum of the queues' sizes; only {@link #hold} and {@link #deliverHead} change a size. */
    private int heldCount;
    /**
     * The last issued send sequence per destination channel, as a clock: issued per send without
     * boxing. Sequences are counted per sink topic (§6.2), so a destination's are increasing with gaps.
     */
    private final VectorClock sendSeq = new VectorClock();
    /** Per destination channel, its restored {@code sq/<ch>}: {@code >= 0} exactly when an earlier incarnation committed a send there. */
    private final VectorClock baselineSeq = new VectorClock();
    /** The last issued sequence per sink topic, keyed by its {@link Channel#wholeTopic} key. */
    private final VectorClock topicSeq = new VectorClock();
    /** The reserved ceiling per sink topic (§6.2), keyed like {@link #topicSeq}. */
    private final VectorClock reservedSeq = new VectorClock();
    /** Per sink topic, the highest sequence restored at init: sends at or below it are a prior incarnation's. */
    private final VectorClock topicBaseline = new VectorClock();
    /** The last destination's topic key, found again only when the destination's topic changes. */
    private Channel lastTopicKey;
    /** This incarnation's sends per sink topic (§6.1), by topic key in topic order. */
    private final Map<Channel, TopicSends> topicSends = new TreeMap<>();
    private TopicSends lastTopicSends;
    /** Whole-topic keys by topic, one instance each: the stamp's own claims and normalisation look them up per send. */
    private final Map<UUID, Channel> topicKeys = new HashMap<>();
    /** This node's own whole-topic claim key per sink topic. */
    private final Map<Channel, SeqKey> ownTopicKeys = new HashMap<>();
    private final int sequenceBlock;
    private final NodeSeams seams;
    private final Map<SeqKey, ProtocolStore.Mark> marks;
    private final Map<Channel, Long> resumePositions = new TreeMap<>();
    private final Map<SeqKey, ProtocolStore.Mark> marksView;
    /**
     * {@code frontier ∪ channelClocks ∪ carried ∪ ownOutputs}, every stamp's base (§6.1): raised
     * here in place when the frontier rises or a received clock raises a claim, null after ancestry
     * is carried or truncated, a sink end is seeded or an input retired, until the next stamp
     * merges it again.
     */
    private VectorClock stampClocks;
    /** The high-watermark probes whole-topic claims wait on (§3.9); memory only. */
    private final Probes probes = new Probes();
    /** The entry held in this call whose clock is still the caller's ({@link #holdBorrowing}); its channel names its queue. */
    private HeldEntry borrowed;

    /**
     * Restores everything the store holds (protocol.md §7.1 steps 3-4). The store holds each
     * destination's reserved sequence ceiling (§6.2): it is {@code baselineSeq}, so sends at or
     * below it belong to prior incarnations, and the first send of this one is issued above it.
     *
     * @param sequenceBlock how many sequences one persisted reservation covers
     * @param seams the node's decisions, of which this state takes the sequence reservation
     * @throws IllegalStateException when a hold queue restores fewer entries than it claims
     * @throws CorruptClockException when a stored clock cannot be decoded
     */
    NodeState(String nodeId, StateStore stateStore, int sequenceBlock, NodeSeams seams) {
        this.nodeId = nodeId;
        this.store = new ProtocolStore(stateStore);
        Set<Channel> deliveredOn = new HashSet<>();
        store.floors(deliveredOn).forEach(frontier::advanceTo);
        deliveredOn.forEach(c -> entry(c).delivered = true);
        store.channelClocks().forEach((c, cc) -> entry(c).clock = cc);
        store.sendSeqs().forEach(this::restoreSequence);
        this.sequenceBlock = sequenceBlock;
        this.seams = seams;
        this.marks = store.marks();
        store.queues().forEach((c, q) -> {
            HoldQueue restored = seams.restoredQueue(c, q);
            entry(c).queue = restored;
            heldCount += restored.size();
        });
        this.carried = store.carried();
        this.marksView = Collections.unmodifiableMap(marks);
    }

    /**
     * Restores one {@code sq/} key (§6.2): a topic's reserved ceiling, or a destination's mark of
     * having been sent to. Both bound the topic's committed sequences, so the first send of this
     * incarnation is issued above all of them. A destination's key written by earlier builds, which
     * counted sequences per destination, holds that destination's ceiling: it bounds them too.
     */
    private void restoreSequence(Channel c, long value) {
        Channel topic = c.isWholeTopic() ? c : Channel.wholeTopic(c.topicId());
        if (c.isWholeTopic()) {
            reservedSeq.advanceTo(c, value);
        } else {
            sendSeq.advanceTo(c, value);
            baselineSeq.advanceTo(c, value);
        }
        topicSeq.advanceTo(topic, value);
        topicBaseline.advanceTo(topic, value);
    }

    // Scope and steps -----------------------------------------------------------------------

    /** The declaration the state was written under, or null on a first start. */
    ProtocolStore.Scope recordedScope() {
        return store.scope();
    }

    void recordScope(SortedSet<Channel> consumed, SortedSet<UUID> sinks) {
        store.putScope(consumed, sinks);
    }

    /**
     * Makes sure a consumed channel has a queue and a channel clock, empty when new, and finds its
     * entry by {@code c}'s reference from now on. Called once per consumed channel, as the node is built.
     */
    void openInput(Channel c) {
        ConsumedChannel in = entry(c);
        if (in.queue == null) {
            in.queue = new HoldQueue(c);
        }
        if (in.clock == null) {
            in.clock = new VectorClock();
        }
        openedChannels = Arrays.copyOf(openedChannels, openedChannels.length + 1);
        opened = Arrays.copyOf(opened, opened.length + 1);
        openedChannels[openedChannels.length - 1] = c;
        opened[opened.length - 1] = in;
    }

    /** Ends a host call: an entry still sharing the caller's clock gets its own copy; writes stay buffered. */
    void endCall() {
        keepBorrowed();
    }

    /** Writes every change since the last persist to the store; the host commits them right after. */
    void persist() {
        keepBorrowed();
        store.flush();
    }

    /** Whether changes are buffered that {@link #persist()} has not written yet. */
    boolean unpersisted() {
        return store.unflushed();
    }

    // Frontier, positions and marks -------------------------------------------------------

    long frontier(Channel c) {
        return frontier.offset(c);
    }

    /**
     * Raises a channel's frontier (protocol.md §2: contiguous, only grows). In memory only: a
     * restart derives it again from the committed consumer position and the hold queue (§7.1).
     *
     * @throws IllegalStateException when {@code f} is not above the current frontier
     */
    void advanceFrontier(Channel c, long f) {
        long current = frontier(c);
        if (f <= current) {
            throw new IllegalStateException("Frontier would not grow; node=" + nodeId + ", channel=" + c
                    + ", frontier=" + current + ", proposed=" + f + "; the node's state is inconsistent:"
                    + " abandon the step and restart from committed state (fail closed)");
        }
        raiseFrontier(c, f);
    }

    /**
     * Raises a channel's frontier and, with it, the kept stamp base: a pointwise maximum takes the
     * rise in place, so the next send copies the base instead of merging the frontier into it.
     */
    private void raiseFrontier(Channel c, long f) {
        frontier.raiseOffset(c, f);
        if (stampClocks != null && seams.renewsStampOnAdvance()) {
            stampClocks.raiseOffset(c, f);
        }
    }

    /**
     * Sets a consumed channel's frontier at init from what the host committed (protocol.md §7.1):
     * the head's offset minus one while the queue holds records, else the committed position minus
     * one; never below the restored floor. {@code committedPosition} is null when none is committed.
     *
     * @throws IllegalStateException when the channel has delivered or held history but no
     *     committed position: the group's committed offsets are gone, and refetching would
     *     deliver that history again
     */
    void deriveFrontier(Channel c, Long committedPosition) {
        HoldQueue q = queue(c);
        boolean holds = q != null && !q.isEmpty();
        if (committedPosition == null && (holds || deliveredOn(c))) {
            throw new IllegalStateException("No committed consumer position for a channel this node delivered or"
                    + " holds records of; node=" + nodeId + ", channel=" + c + "; the committed offsets of the"
                    + " application's consumer group are missing (expired by offsets.retention.minutes, or deleted):"
                    + " restore the group's offsets, or reset the application's state and offsets together (fail closed)");
        }
        long derived = holds ? q.head().offset() - 1
                : committedPosition == null ? VectorClock.NOTHING : committedPosition - 1;
        long chosen = seams.derivedFrontier(c, derived, committedPosition == null ? VectorClock.NOTHING : committedPosition);
        if (chosen > frontier(c)) {
            raiseFrontier(c, chosen);
        }
    }

    /** Whether this node delivered records on a channel, as far as its persisted floors know. */
    boolean deliveredOn(Channel c) {
        ConsumedChannel in = input(c);
        return in != null && in.delivered;
    }

    /** Remembers the highest consumer position learned on a channel (memory only, §3.5). */
    void notePosition(Channel c, long position) {
        ConsumedChannel in = entry(c);
        if (position > in.positionKnown) {
            in.positionKnown = position;
        }
    }

    /** The highest consumer position learned on a channel, or 0 when none is. */
    long positionKnown(Channel c) {
        ConsumedChannel in = input(c);
        return in == null || in.positionKnown == VectorClock.NOTHING ? 0L : in.positionKnown;
    }

    /** Raises the delivered-sequence mark of {@code (c, sender)}; a lower or equal seq is a replay (§3.8). */
    void advanceMark(Channel c, UUID sender, long seq, long offset) {
        advanceMark(entry(c), c, sender, seq, offset);
    }

    private void advanceMark(ConsumedChannel in, Channel c, UUID sender, long seq, long offset) {
        SeqKey k = in.markKey;
        if (k == null || !k.sender().equals(sender)) {
            k = new SeqKey(c, sender);
            in.markKey = k;
        }
        ProtocolStore.Mark mark = marks.get(k);
        if (mark == null || seq > mark.seq()) {
            ProtocolStore.Mark next = new ProtocolStore.Mark(seq, offset);
            marks.put(k, next);
            store.putMark(k, next);
        }
    }

    ProtocolStore.Mark mark(SeqKey k) {
        return marks.get(k);
    }

    // Probes (§3.9) -----------------------------------------------------------------------

    /**
     * Whether a probe shows every record {@code sender} sent to {@code partition} at or below
     * {@code seq} delivered, for a head at {@code offset} of {@code own}: a probe started after the
     * head arrived was answered with a high watermark, everything below it was fetched or skipped
     * here, and no record of the sender at or below the sequence is still queued. When none does,
     * asks for one.
     */
    boolean probedDelivered(Channel partition, UUID sender, long seq, Channel own, long offset) {
        long position = positionKnown(partition);
        Probes.Answer a = probes.firstCovering(partition, position, t -> seams.probeCovers(t, own, offset));
        if (a == null) {
            probes.want(partition);
            return false;
        }
        // an answer stands once it covers the head: the position and the queue can only move towards it
        return position >= a.highWatermark() && !queuedAtOrBelow(partition, sender, seq);
    }

    /** Whether a record of {@code sender} at or below {@code seq} is queued on {@code c}: the first of its records there tells. */
    private boolean queuedAtOrBelow(Channel c, UUID sender, long seq) {
        HoldQueue q = queue(c);
        if (q == null || !seams.probeReadsQueue()) {
            return false;
        }
        for (var it = q.iterator(); it.hasNext();) {
            HeldEntry e = it.next();
            if (sender.equals(e.sender())) {
                return e.seq() <= seq;
            }
        }
        return false;
    }

    /** The partitions a held head wants a probe of: a read-only view, which starting a probe changes. */
    Set<Channel> probesWanted() {
        return probes.wanted();
    }

    /**
     * Starts a probe of a consumed partition, noting how far every consumed channel had arrived: below
     * the known position, and at or below the last queued record (a restored queue arrived in an
     * earlier incarnation, before this one knew any position). Only held heads ask, so what had
     * arrived matters only as far as the queue reaches.
     */
    Probes.Ticket startProbe(Channel partition) {
        Map<Channel, Long> arrived = new TreeMap<>();
        inputs.forEach((c, in) -> {
            long below = in.positionKnown;
            if (in.queue != null && !in.queue.isEmpty()) {
                below = Math.max(below, in.queue.tail().offset() + 1);
            }
            arrived.put(c, Math.max(0L, below));
        });
        return probes.start(partition, arrived);
    }

    void probeAnswered(Probes.Ticket ticket, long highWatermark) {
        probes.answered(ticket, highWatermark);
    }

    boolean anyProbeAnswered() {
        return probes.anyAnswered();
    }

    /** The frontier itself, for the gate, which only reads it. */
    VectorClock frontierClock() {
        return frontier;
    }

    /** A read-only copy of the frontier, for diagnostics and tests. */
    Map<Channel, Long> frontiers() {
        return frontier.offsets();
    }

    /** Read-only delivered-sequence marks, for the gate. */
    Map<SeqKey, ProtocolStore.Mark> marks() {
        return marksView;
    }

    /** A copy of the known positions, for hold diagnostics. */
    Map<Channel, Long> positionsKnown() {
        Map<Channel, Long> out = new TreeMap<>();
        inputs.forEach((c, in) -> {
            if (in.positionKnown != VectorClock.NOTHING) {
                out.put(c, in.positionKnown);
            }
        });
        return out;
    }

    private HoldQueue queue(Channel c) {
        ConsumedChannel in = input(c);
        return in == null ? null : in.queue;
    }

    /** A channel's entry, or null: an opened channel's own instance by reference first. */
    private ConsumedChannel input(Channel c) {
        for (int i = 0; i < openedChannels.length; i++) {
            if (openedChannels[i] == c) {
                return opened[i];
            }
        }
        // an equal instance (a host's own, a decoded one): still a scan, cheaper than the tree's comparisons
        for (int i = 0; i < openedChannels.length; i++) {
            if (openedChannels[i].equals(c)) {
                return opened[i];
            }
        }
        return inputs.get(c);
    }

    /** A channel's entry, made empty when it has none. */
    private ConsumedChannel entry(Channel c) {
        ConsumedChannel in = input(c);
        if (in == null) {
            in = new ConsumedChannel();
            inputs.put(c, in);
        }
        return in;
    }

    // Hold queues -------------------------------------------------------------------------

    /** Appends a received record to its channel's queue, in memory and store. */
    void hold(HeldEntry e) {
        queue(e.channel()).enqueue(e, store);
        heldCount++;
    }

    /**
     * Holds an entry that shares the caller's record clock until this call ends ({@link #endCall}),
     * which gives it its own copy if it is still queued then: the caller may change the clock once the
     * call returns, and most records, delivered in the call that received them, never need a copy.
     */
    void holdBorrowing(HeldEntry e) {
        hold(e);
        borrowed = e;
    }

    private void keepBorrowed() {
        HoldQueue q = borrowed == null ? null : queue(borrowed.channel());
        if (q != null && q.tail() == borrowed) {
            q.replaceTail(borrowed.withClock(seams.keepBorrowed(borrowed.clock())), store);
        }
        borrowed = null;
    }

    /** Pops a channel's head, advances its frontier and the sender's mark, and returns its delivery (§3.2 rule 6). */
    Delivery deliverHead(Channel c) {
        HeldEntry head = queue(c).pop(store);
        heldCount--;
        return deliver(c, head);
    }

    /**
     * Delivers a record the gate passed on arrival at its channel's empty queue, as if it had been
     * queued and popped (§3.4): the queue, its indices and the store's entries stay as they were.
     * The caller vouches that the queue is empty; delivering past a held record would break FIFO.
     */
    Delivery deliverArrival(HeldEntry e) {
        return deliver(e.channel(), e);
    }

    private Delivery deliver(Channel c, HeldEntry e) {
        // a raise keeps the larger watermark: advancing only past the frontier, with one lookup, not three
        raiseFrontier(c, e.offset());
        ConsumedChannel in = entry(c);
        if (!in.delivered) {
            in.delivered = true;
            // delivered history now exists: a restart without a committed position must fail closed
            store.putFloor(c, frontier(c), true);
        }
        if (e.tagged()) {
            advanceMark(in, c, e.sender(), e.seq(), e.offset());
        }
        return e;
    }

    /** A channel's queue head, or null when nothing is queued there. */
    HeldEntry head(Channel c) {
        HoldQueue q = queue(c);
        return q == null ? null : q.head();
    }

    /** The entry queued right behind a channel's head, or null when there is none. */
    HeldEntry behindHead(Channel c) {
        HoldQueue q = queue(c);
        if (q == null || q.size() < 2) {
            return null;
        }
        var it = q.iterator();
        it.next();
        return it.next();
    }

    /** A channel's last queued entry, or null when nothing is queued there. */
    HeldEntry tail(Channel c) {
        HoldQueue q = queue(c);
        return q == null ? null : q.tail();
    }

    int held(Channel c) {
        HoldQueue q = queue(c);
        return q == null ? 0 : q.size();
    }

    /** Records queued on every channel: counted as they are queued and popped, asked after every step. */
    int held() {
        return heldCount;
    }

    /** Every queued entry, channel by channel in queue order. */
    void forEachHeld(BiConsumer<Channel, HeldEntry> action) {
        inputs.forEach((c, in) -> {
            if (in.queue != null) {
                in.queue.iterator().forEachRemaining(e -> action.accept(c, e));
            }
        });
    }

    // Clocks ------------------------------------------------------------------------------

    /**
     * Folds a received clock into the channel's advertised clock (§3.7), persisting it only when a
     * claim rose: the stored clock always equals the one in memory, so an unchanged one need not be
     * written again.
     */
    void foldChannelClock(Channel c, VectorClock clock) {
        VectorClock cc = input(c).clock;
        if (cc.raiseTo(clock)) {
            if (seams.renewsStampOnFold() && stampClocks != null) {
                // a union of pointwise maxima takes the rise in place: with cc raised to include
                // clock, the union becomes max(union, clock), without merging every clock again
                stampClocks.raiseTo(clock);
            }
            store.putChannelClock(c, cc);
        }
    }

    /** Adds claims to carried ancestry (§7.2) and persists it, even when nothing changed. */
    void carry(VectorClock claims) {
        carried.mergeMax(claims);
        stampClocks = null;
        store.putCarried(carried);
    }

    /** Seeds own outputs at init (§6.4); memory only, constant once the node runs. */
    void seedOwnOutput(Channel c, long offset) {
        seedSinkEnd(c, offset, true);
    }

    /**
     * Notes a sink channel's end at init (§6.4): always as known history for a grown input (§7.2
     * step 3), and as an own-output claim only where this node {@code caused} something.
     */
    void seedSinkEnd(Channel c, long offset, boolean caused) {
        sinkEnds.advanceTo(c, offset);
        if (caused) {
            stampClocks = null;
            ownOutputs.advanceTo(c, offset);
        }
    }

    long ownOutput(Channel c) {
        return ownOutputs.offset(c);
    }

    long carried(Channel c) {
        return carried.offset(c);
    }

    /** {@code frontier ∪ channelClocks ∪ carriedAncestry ∪ ownOutputs}, a fresh clock (§6.1). */
    VectorClock stampBase() {
        return VectorClock.copyOf(stampClocks(), 0);
    }

    /**
     * {@link #stampBase()} written over {@code target}, whose arrays it reuses where they have room:
     * the send path's clock, which a node keeps and rebuilds per send instead of allocating one.
     */
    VectorClock stampBaseInto(VectorClock target) {
        return target.setTo(stampClocks(), 0);
    }

    /** The stamp base, merged once and kept until a clock under it changes (raised in place when one rises). */
    private VectorClock stampClocks() {
        if (stampClocks == null) {
            VectorClock merged = new VectorClock();
            for (ConsumedChannel in : inputs.values()) {
                if (in.clock != null) {
                    merged.mergeMax(in.clock);
                }
            }
            stampClocks = merged.mergeMax(carried).mergeMax(ownOutputs).mergeOffsets(frontier);
        }
        return stampClocks;
    }

    /** Drops offset claims at or below the bound from carried ancestry and channel clocks (§8.1). */
    void truncate(VectorClock stability) {
        stampClocks = null;
        if (carried.truncateAtOrBelow(stability)) {
            store.putCarried(carried);
        }
        inputs.forEach((c, in) -> {
            if (in.clock != null && in.clock.truncateAtOrBelow(stability)) {
                store.putChannelClock(c, in.clock);
            }
        });
    }

    /** Channels named by offset claims of carried ancestry and the channel clocks. */
    Set<Channel> stampChannels() {
        Set<Channel> out = new TreeSet<>(carried.offsets().keySet());
        forEachClock((c, cc) -> out.addAll(cc.offsets().keySet()));
        return out;
    }

    /** A copy of carried ancestry. */
    VectorClock carried() {
        return VectorClock.copyOf(carried);
    }

    /** A copy of own outputs. */
    VectorClock ownOutputs() {
        return VectorClock.copyOf(ownOutputs);
    }

    /** Every channel clock with its channel, in channel order. */
    private void forEachClock(BiConsumer<Channel, VectorClock> action) {
        inputs.forEach((c, in) -> {
            if (in.clock != null) {
                action.accept(c, in.clock);
            }
        });
    }

    /** A copy of every channel clock. */
    Map<Channel, VectorClock> channelClocks() {
        Map<Channel, VectorClock> out = new TreeMap<>();
        forEachClock((c, cc) -> out.put(c, VectorClock.copyOf(cc)));
        return out;
    }

    // Send sequences ----------------------------------------------------------------------

    /**
     * Issues the next send sequence of a destination (§6.2), from its topic's counter. The store holds
     * the topic's reserved ceiling, not the last issued sequence: a sequence above the ceiling first
     * reserves the next block, written with the step that issues it (at the next persist, before its
     * commit). The first send to a destination also writes the destination's own key, which tells a
     * later incarnation that this node sent there (§6.4).
     *
     * @throws IllegalStateException when the sequence would not grow (it overflowed)
     */
    long issueSendSeq(Channel destination) {
        Channel topic = topicKey(destination);
        long next = topicSeq.incrementOffset(topic);
        if (next == VectorClock.NOTHING) {
            throw new IllegalStateException("Send sequence would not grow; node=" + nodeId + ", topic="
                    + topic + ", last issued=" + Long.MAX_VALUE + "; the sequence space of this topic is"
                    + " exhausted: reset the application's state (fail closed)");
        }
        long reserved = reservedSeq.offset(topic);
        long ceiling = seams.sequenceCeiling(topic, next, reserved, sequenceBlock);
        if (ceiling != reserved) {
            reservedSeq.raiseOffset(topic, ceiling);
            store.putSendSeq(topic, ceiling);
        }
        long previous = sendSeq.offset(destination);
        sendSeq.raiseOffset(destination, next);
        topicSends(topic).sent(destination, next, previous <= topicBaseline.offset(topic));
        if (previous == VectorClock.NOTHING) {
            // never sent here, in this incarnation or a restored one: the key that says it now did (§6.4)
            store.putSendSeq(destination, next);
        }
        return next;
    }

    /** This incarnation's sends to a sink topic, made at its first send. */
    private TopicSends topicSends(Channel topic) {
        TopicSends t = lastTopicSends;
        if (t == null || t.topic != topic) {
            t = topicSends.computeIfAbsent(topic, TopicSends::new);
            lastTopicSends = t;
        }
        return t;
    }

    /** This incarnation's sends per sink topic, for the stamp's own claims (§6.1), in topic order. */
    Iterable<TopicSends> topicSends() {
        return topicSends.values();
    }

    /** Whether this incarnation has sent to {@code destination}. */
    boolean sentThisIncarnation(Channel destination, Channel topic) {
        return sendSeq.offset(destination) > topicBaseline.offset(topic);
    }

    /** The whole-topic key of a destination's topic, kept from the last send. */
    Channel topicKey(Channel destination) {
        Channel k = lastTopicKey;
        if (k == null || !k.sameTopic(destination)) {
            k = topicKeyOf(destination);
            lastTopicKey = k;
        }
        return k;
    }

    /** The whole-topic key of {@code c}'s topic, one instance per topic. */
    Channel topicKeyOf(Channel c) {
        if (c.isWholeTopic()) {
            return c;
        }
        return topicKeys.computeIfAbsent(c.topicId(), Channel::wholeTopic);
    }

    /** The key of {@code self}'s whole-topic claim on {@code topic}, built once per topic. */
    SeqKey ownTopicKey(Channel topic, UUID self) {
        SeqKey k = ownTopicKeys.get(topic);
        if (k == null || !k.sender().equals(self)) {
            k = new SeqKey(topic, self);
            ownTopicKeys.put(topic, k);
        }
        return k;
    }

    /** The highest sequence restored at init for a sink topic: sends at or below it are a prior incarnation's. */
    long topicBaseline(Channel topicKey) {
        return topicBaseline.offset(topicKey);
    }

    /**
     * A read-only copy of the last sequence per destination: issued in this incarnation, or, for a
     * destination not sent to since the restart, its restored {@code sq/<ch>} (its first send ever).
     */
    Map<Channel, Long> sendSeqs() {
        return sendSeq.offsets();
    }

    /** The last issued sequence per destination itself, for the stamp, which only reads it by index. */
    VectorClock sendSeqClock() {
        return sendSeq;
    }

    /**
     * The sequence restored at init for a destination, {@code >= 0} exactly when an earlier
     * incarnation committed a send there (§6.4).
     */
    long baselineSeq(Channel c) {
        return baselineSeq.offset(c);
    }

    /** A read-only copy of the per-destination sequences restored at init. */
    Map<Channel, Long> baselineSeqs() {
        return baselineSeq.offsets();
    }

    // Rescope -----------------------------------------------------------------------------

    /**
     * Moves a removed input's delivered past into carried ancestry and deletes its keys (§7.2
     * step 2).
     *
     * @return the input's frontier, or null when it had none
     * @throws IllegalStateException when the input still holds records
     */
    Long retireInput(Channel gone) {
        stampClocks = null;
        // never an opened entry: only consumed channels are opened, and a removed input is not consumed
        ConsumedChannel in = inputs.remove(gone);
        HoldQueue q = in == null ? null : in.queue;
        if (q != null && !q.isEmpty()) {
            throw new IllegalStateException(q.size() + " held records on removed input; node=" + nodeId
                    + ", channel=" + gone + "; redeclare the input or perform a full reset (fail closed)");
        }
        long known = frontier.offset(gone);
        Long f = known == VectorClock.NOTHING ? null : known;
        frontier.removeChannel(gone);
        if (f != null && f >= 0) {
            carried.advanceTo(gone, f);
        }
        if (in != null && in.clock != null) {
            carried.mergeMax(in.clock);
        }
        List<SeqKey> goneMarks = marks.keySet().stream().filter(k -> k.channel().equals(gone)).toList();
        goneMarks.forEach(marks::remove);
        store.deleteInput(gone, goneMarks);
        store.putCarried(carried);
        return f;
    }

    /** What this node knows of a channel's offsets: frontier, channel clocks, carried, sink ends (§7.2 step 3). */
    long knownOffset(Channel c) {
        VectorClock known = new VectorClock();
        known.mergeOffsets(frontier);
        forEachClock((channel, cc) -> known.mergeOffsets(cc));
        known.mergeOffsets(carried);
        known.mergeOffsets(sinkEnds);
        return known.offset(c);
    }

    /**
     * Starts a grown input at {@code seed}: its frontier, persisted as its floor because no consumer
     * position implies it (the host refetches below it, §7.3), and where a seeking host resumes.
     */
    void seedInput(Channel grown, long seed) {
        advanceFrontier(grown, seed);
        long floor = seams.seedFloor(grown, seed);
        if (floor >= 0) {
            store.putFloor(grown, floor, false);
        }
        resumePositions.put(grown, seed + 1);
    }

    Map<Channel, Long> resumePositions() {
        return Collections.unmodifiableMap(resumePositions);
    }
}
