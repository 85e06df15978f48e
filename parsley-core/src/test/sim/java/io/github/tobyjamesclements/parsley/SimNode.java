package io.github.tobyjamesclements.parsley;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The reference host of one {@link CausalNode} (protocol.md §12.1, H1-H6), driven by the world one
 * action at a time.
 *
 * <ul>
 *   <li>H1: a read-committed consumer per channel fetches into a buffer; buffered records are fed
 *       one at a time in offset order.</li>
 *   <li>H2: a position sweep reports each consumer position once every record returned at or below
 *       it was fed (the decision is the installed {@link Fault}'s, honest by default).</li>
 *   <li>H3: store writes, sends and consumer positions of a transaction that spans several actions
 *       commit together; a crash aborts all three.</li>
 *   <li>H4: every emission is partitioned first, stamped for that concrete channel, then appended
 *       there.</li>
 *   <li>H5: every (re)start builds a new node from committed state through the full init path,
 *       possibly under a new declaration (a redeploy that changes scope). Like the Streams adapter it
 *       cannot seek: a grown input starts from the earliest offset and its prefix is replayed into
 *       the replay guard (protocol.md §7.3).</li>
 *   <li>H6: a position below the log start resets to it; retention never passes what a stage
 *       still needs: a record not yet fed or still held, or, before the first commit, the first
 *       start position (the world asks {@link #retentionFloor}).</li>
 * </ul>
 *
 * <p>The handler is a routing table: each delivered record is forwarded to each route's topic with
 * a seeded, deterministic probability, up to a hop limit (damped cycles).
 *
 * <p>A node may be denied sight of topics other nodes see (its principal may not describe them):
 * its {@code CausalNode} then queries the broker through {@link SimHiddenTopics}.
 *
 * <p>With a dead-letter topic the host handles poison like the Streams host: a record whose headers
 * cannot be read is dead-lettered when consumed and never fed (its offset counts as fed, so positions
 * pass it); a delivered record its logic fails on is dead-lettered instead of routed. Both writes go
 * into the step's transaction, and held records keep their headers for it.
 */
final class SimNode {

    /** Lifecycle of the node. */
    enum Status { WAITING, UP, DOWN }

    /** Where a channel with no committed position starts. */
    enum StartAt { EARLIEST, LATEST }

    /** One forwarding rule: emit to {@code topic} with probability permille/1000. */
    record Route(UUID topic, int permille, boolean spreadKeys) {
    }

    /** What a deployment of the node consumes, may send to and forwards. */
    record Declaration(SortedSet<Channel> consumed, SortedSet<UUID> sinks, List<Route> routes) {

        Declaration {
            consumed = Collections.unmodifiableSortedSet(new TreeSet<>(consumed));
            sinks = Collections.unmodifiableSortedSet(new TreeSet<>(sinks));
            routes = List.copyOf(routes);
        }
    }

    /** The crash of a step, thrown at a send and caught by the action that ran the step. */
    private static final class Crash extends RuntimeException {
        Crash() {
            super(null, null, false, false);
        }
    }

    /**
     * Send-sequence reservation blocks (protocol.md §6.2), one per node from the seed: small blocks
     * make ceilings pass often within a world, the production block reserves once per channel.
     */
    private static final int[] SEQUENCE_BLOCKS = {1, 2, 3, NodeConfig.SEQUENCE_BLOCK};

    final String name;
    final UUID senderId;
    private final int sequenceBlock;
    private final SimWorld world;
    private final SplittableRandom rng;
    private final List<Declaration> declarations;
    private final StartAt startAt;
    private final int maxHops;
    private final int maxPoll;
    private final Predicate<SimWorld> startWhen;
    private final Predicate<SimWorld> redeployWhen;
    private final SortedSet<Channel> slow;
    private final Channel deadLetters;
    private final int failPermille;
    private final SortedSet<String> restoredHeld = new TreeSet<>();
    private final SortedSet<UUID> hidden;
    private int version;
    private int incarnations;
    private int sendsThisIncarnation;
    private int crashBudget;
    private final int crashHolding;
    private int truncationBudget;
    private boolean redeployRefused;
    private Status status = Status.WAITING;

    private final TreeMap<String, byte[]> committedStore = new TreeMap<>();
    /** The task this node shares with other stages (fan-out), or null when it runs alone. */
    private final SimTask task;
    /** The read view of a stateful node whose state clients read (protocol.md §17), or null. */
    private final SimReadView view;
    /** A readable node between its pre-commit persist and its commit: it only commits or crashes. */
    private boolean preCommitted;
    private int holds;
    /** This incarnation's reader of record stamps: every record's clock in one reused clock, as a task reads them. */
    private StampReader stamps;
    private final TreeMap<Channel, Long> committedPositions = new TreeMap<>();
    private final TreeMap<Channel, Long> committedFloors = new TreeMap<>();
    private final TreeMap<Channel, Long> firstStarts = new TreeMap<>();

    private CausalNode node;
    private SimStore store;
    private SimBroker.Txn txn;
    private boolean dirty;
    private int sendsUntilCrash = -1;
    private final TreeMap<Channel, Long> fetchPosition = new TreeMap<>();
    private final TreeMap<Channel, Long> fedThrough = new TreeMap<>();
    private final TreeMap<Channel, Long> lastReturned = new TreeMap<>();
    private final TreeMap<Channel, Long> reported = new TreeMap<>();
    private final TreeMap<Channel, ArrayDeque<SimBroker.Fetched>> buffers = new TreeMap<>();
    private final TreeMap<Channel, Long> rememberedAdvances = new TreeMap<>();
    /** Probes started and not yet answered, oldest first (H7, protocol.md §3.9); gone with the node. */
    private final ArrayDeque<Probes.Ticket> probing = new ArrayDeque<>();

    private SimNode(Builder b) {
        this.world = b.world;
        this.name = b.name;
        this.senderId = Senders.of("parsley-sim", b.name, 0);
        this.sequenceBlock = SEQUENCE_BLOCKS[Math.floorMod(b.world.mix(b.name.hashCode(), 62), SEQUENCE_BLOCKS.length)];
        this.rng = b.world.split();
        this.declarations = List.copyOf(b.declarations);
        this.startAt = b.startAt;
        this.maxHops = b.maxHops;
        this.maxPoll = b.maxPoll;
        this.startWhen = b.startWhen;
        this.redeployWhen = b.redeployWhen;
        this.slow = new TreeSet<>(b.slow);
        this.deadLetters = b.deadLetters == null ? null : b.world.broker().channel(b.deadLetters, 0);
        this.failPermille = b.failPermille;
        this.hidden = new TreeSet<>(b.hidden);
        this.crashBudget = b.crashes;
        this.crashHolding = b.crashHolding;
        this.truncationBudget = b.truncations;
        this.task = b.task;
        this.view = b.readable ? new SimReadView(b.world.fault()) : null;
        if (task != null) {
            task.add(this);
        }
        world.oracle().actor(name, true);
    }

    // Actions ------------------------------------------------------------------------------------

    void actions(List<SimWorld.Action> out) {
        switch (status) {
            case WAITING -> {
                if (startWhen.test(world)) {
                    out.add(action(() -> "start", 4, this::start));
                }
            }
            case DOWN -> out.add(action(() -> "restart", 4, this::restart));
            case UP -> upActions(out);
            default -> throw new IllegalStateException("status " + status);
        }
    }

    private void upActions(List<SimWorld.Action> out) {
        if (preCommitted) {
            // between the pre-commit hook and commitTransaction the stream thread does nothing else
            out.add(action(() -> "commit", 3, this::commit));
            if (crashBudget > 0) {
                out.add(action(() -> "crash-before-commit", 1, () -> crash(SimStats.Counter.CRASHES_BEFORE_COMMIT)));
            }
            return;
        }
        boolean anyBuffered = false;
        for (Channel c : declaration().consumed()) {
            ArrayDeque<SimBroker.Fetched> buffer = buffers.get(c);
            if (buffer.size() < 4 && fetchPosition.get(c) < world.broker().lastStable(c)) {
                out.add(action(() -> "poll " + world.broker().name(c), slow.contains(c) ? 1 : 4, () -> poll(c)));
            }
            if (!buffer.isEmpty()) {
                anyBuffered = true;
                out.add(action(() -> "process " + world.broker().name(c), 4, () -> process(c)));
            }
        }
        boolean sweepable = sweepable();
        if (sweepable) {
            out.add(action(() -> "sweep", 3, this::sweep));
        }
        if (!probesToStart().isEmpty()) {
            out.add(action(() -> "probe " + probesToStart(), 3, this::startProbes));
        }
        if (!probing.isEmpty()) {
            out.add(action(() -> "probe answer " + probing.peek().partition(), 3, this::answerProbe));
        }
        if (dirty) {
            out.add(view == null ? action(() -> "commit", 3, this::commit)
                    : action(() -> "pre-commit", 3, this::preCommit));
        }
        if (crashBudget > 0 && node.held() >= crashHolding) {
            out.add(action(() -> "crash-idle", 1, () -> crash(SimStats.Counter.CRASHES_IDLE)));
            if (anyBuffered || sweepable) {
                out.add(action(() -> "crash-mid-step", 1, this::crashMidStep));
            }
        }
        if (truncationBudget > 0) {
            out.add(action(() -> "truncate", 1, this::truncate));
        }
        if (version + 1 < declarations.size() && redeployWhen.test(world) && redeployAllowed()) {
            out.add(action(() -> "redeploy", 1, this::redeploy));
        }
    }

    private SimWorld.Action action(Supplier<String> what, int weight, Runnable run) {
        return new SimWorld.Action(() -> name + " " + what.get(), weight, run, this);
    }

    /** Runs a process or sweep step and crashes inside it: after 0-2 sends, or at its end. */
    private void crashMidStep() {
        List<Runnable> steps = new ArrayList<>();
        for (Channel c : declaration().consumed()) {
            if (!buffers.get(c).isEmpty()) {
                steps.add(() -> process(c));
            }
        }
        if (sweepable()) {
            steps.add(this::sweep);
        }
        Runnable chosen = steps.get(rng.nextInt(steps.size()));
        sendsUntilCrash = rng.nextInt(3);
        try {
            chosen.run();
            throw new Crash();
        } catch (Crash crash) {
            crash(SimStats.Counter.CRASHES_MID_STEP);
        } finally {
            sendsUntilCrash = -1;
        }
    }

    // Lifecycle ----------------------------------------------------------------------------------

    private void start() {
        if (task != null) {
            task.initDown();
        } else {
            init();
        }
        world.trace(name + " started");
    }

    private void restart() {
        if (task != null) {
            task.initDown();
        } else {
            init();
        }
        world.stats().add(SimStats.Counter.RESTARTS);
    }

    /** Init of one member of a shared task: a start, restart or handover of the task. */
    void initMember() {
        init();
    }

    /** Full init path (H5): a new node from committed state, consumers at committed positions. */
    private void init() {
        Declaration d = declaration();
        store = new SimStore(task == null ? committedStore
                : task.store(world.fault().protocolStore(name, task.name)));
        NodeConfig config = new NodeConfig(name, senderId, d.consumed(), d.sinks(), sequenceBlock,
                world.maxStampBytes());
        node = world.fault().newNode(config, store, offsets(), new TreeMap<>(committedPositions));
        probing.clear();
        stamps = new StampReader(new ChannelCache());
        status = Status.UP;
        incarnations++;
        if (view != null) {
            view.open(node.readSnapshot(), incarnations);
        }
        sendsThisIncarnation = 0;
        txn = null;
        dirty = true;
        world.oracle().declare(name, d.consumed());
        committedPositions.keySet().retainAll(d.consumed());
        committedFloors.keySet().retainAll(d.consumed());
        firstStarts.keySet().retainAll(d.consumed());
        fetchPosition.clear();
        fedThrough.clear();
        lastReturned.clear();
        reported.clear();
        buffers.clear();
        rememberedAdvances.clear();
        restoredHeld.clear();
        node.state().forEachHeld((c, e) -> restoredHeld.add(c + "/" + e.offset()));
        countSenderSwitches();
        for (Channel c : d.consumed()) {
            Long position = committedPositions.get(c);
            if (position == null) {
                position = startAt == StartAt.EARLIEST ? world.broker().logStart(c) : world.broker().lastStable(c);
            }
            position = Math.max(position, world.broker().logStart(c));
            firstStarts.putIfAbsent(c, position);
            fetchPosition.put(c, position);
            buffers.put(c, new ArrayDeque<>());
            // Like the Streams adapter, the host does not seek a grown input to its resume position: it
            // refetches the prefix, which the replay guard drops. The prefix is the node's past (S8),
            // so the baseline there is the resume position.
            Long resume = node.resumePositions().get(c);
            world.oracle().baseline(name, c, resume == null ? position : Math.max(resume, position));
        }
    }

    /** The broker as this node's principal sees it: some topics may be hidden from it. */
    private BrokerOffsets offsets() {
        BrokerOffsets all = world.broker().offsets();
        return hidden.isEmpty() ? all : new SimHiddenTopics(all, hidden, world.broker()::name);
    }

    /**
     * The pre-commit hook of a readable node: the snapshot of what its state reflects is prepared;
     * the commit follows as a step of its own, which a crash may precede (protocol.md §17.1). The
     * node's buffered state is written at the commit step, through the installed fault's
     * {@link Fault#commitStore} as every host's is: nothing changes it in between.
     */
    private void preCommit() {
        view.prepare(node.readSnapshot());
        preCommitted = true;
    }

    private void commit() {
        if (view != null && !preCommitted) {
            preCommit();
        }
        if (task != null) {
            task.commit();
            return;
        }
        if (txn != null) {
            world.broker().commit(txn);
            world.oracle().committed(txn.recordIds);
            txn = null;
        }
        commitState();
    }

    /** Commits this node's store writes and consumer positions (its transaction committed). */
    void commitState() {
        world.fault().commitStore(store, node);
        for (Channel c : declaration().consumed()) {
            committedPositions.put(c, consumerPosition(c));
            committedFloors.put(c, retentionFloorNow(c));
        }
        world.oracle().commit(name);
        dirty = false;
        if (view != null) {
            view.committed();
            preCommitted = false;
        }
    }

    private void crash(SimStats.Counter kind) {
        if (task != null) {
            task.abort();
        } else {
            if (txn != null) {
                world.broker().abort(txn);
                world.oracle().aborted(txn.recordIds);
                world.stats().add(SimStats.Counter.ABORTED_TRANSACTIONS);
                txn = null;
            }
            crashState();
        }
        world.stats().add(kind);
        crashBudget--;
        world.trace(name + " crashed (" + kind + ")");
    }

    /** Drops this node's uncommitted state and takes it down (its transaction aborted). */
    void crashState() {
        world.fault().onCrash(store, node);
        world.oracle().abort(name);
        probing.clear();
        node = null;
        store = null;
        status = Status.DOWN;
        dirty = false;
        if (view != null) {
            view.close();
            preCommitted = false;
        }
    }

    /** Crashes the node outside the scheduler's budget (a scripted event). */
    void crashNow() {
        if (status == Status.UP) {
            crashBudget++;
            crash(SimStats.Counter.CRASHES_IDLE);
        }
    }

    /**
     * Counts the restored entries whose sender differs from the one before them in their queue: a
     * restore that reused the previous entry's sender id for them would tag them wrongly ({@code TAG}).
     */
    private void countSenderSwitches() {
        Map<Channel, UUID> previous = new TreeMap<>();
        node.state().forEachHeld((c, e) -> {
            UUID before = previous.put(c, e.sender());
            if (before != null && e.sender() != null && !before.equals(e.sender())) {
                world.stats().add(SimStats.Counter.RESTORED_SENDER_SWITCHES);
            }
        });
    }

    /** A graceful redeploy under the next declaration; refused (F9) while a removed input holds records. */
    private void redeploy() {
        if (task != null) {
            task.commit();
        } else if (dirty) {
            commit();
        }
        Declaration before = declaration();
        version++;
        try {
            init();
            if (!before.consumed().equals(declaration().consumed()) || !before.sinks().equals(declaration().sinks())) {
                world.stats().add(SimStats.Counter.SCOPE_CHANGES);
            }
            world.trace(name + " redeployed: consumed=" + declaration().consumed().size() + " sinks="
                    + declaration().sinks().size());
            if (task != null) {
                task.reinitOthers(this);
            }
        } catch (IllegalStateException refused) {
            if (!refused.getMessage().contains("held records on removed input")) {
                throw refused;
            }
            version--;
            redeployRefused = true;
            world.stats().add(SimStats.Counter.SCOPE_CHANGES_REFUSED);
            world.trace(name + " redeploy refused: " + before.consumed().size() + " inputs kept");
            init();
        }
    }

    private boolean redeployAllowed() {
        if (!redeployRefused) {
            return true;
        }
        for (Channel c : declaration().consumed()) {
            if (!declarations.get(version + 1).consumed().contains(c) && node.held(c) > 0) {
                return false;
            }
        }
        return true;
    }

    // Host steps ---------------------------------------------------------------------------------

    private void poll(Channel c) {
        SimBroker.Fetch f = world.broker().fetch(c, fetchPosition.get(c), 1 + rng.nextInt(maxPoll));
        buffers.get(c).addAll(f.records());
        if (!f.records().isEmpty()) {
            lastReturned.put(c, f.records().get(f.records().size() - 1).offset());
        }
        fetchPosition.put(c, f.position());
    }

    private void process(Channel c) {
        SimBroker.Fetched r = buffers.get(c).poll();
        fedThrough.put(c, r.offset());
        dirty = true;
        long f = node.frontier(c);
        if (world.poisonOf(r.entry().recordId()) == SimWorld.Poison.UNREADABLE) {
            // never fed: counted as fed above, so the sweep may pass it; a replayed one is history
            if (r.offset() > f) {
                deadLetter(c, r.offset(), r.entry().recordId(), r.entry().key(), r.entry().value(),
                        SimWorld.headers(r.entry().recordId()), false);
            }
            return;
        }
        Long base = world.oracle().baselineOf(name, c);
        if (node.held(c) == 0 && f >= 0 && r.offset() - 1 > f
                && world.broker().hasSkippable(c, Math.max(f + 1, base == null ? 0 : base), r.offset())) {
            world.stats().add(SimStats.Counter.MARKERS_BRIDGED);
        }
        long replays = node.replaysSkipped();
        List<Delivery> out = node.onRecord(read(r.inbound(deadLetters != null)));
        if (node.replaysSkipped() > replays) {
            world.stats().add(SimStats.Counter.REPLAYS_SKIPPED);
        } else if (out.stream().noneMatch(d -> d.channel().equals(c) && d.offset() == r.offset())) {
            world.stats().add(SimStats.Counter.HOLDS);
            holds++;
        }
        handle(out);
    }

    private boolean sweepable() {
        for (Channel c : declaration().consumed()) {
            if (sweepDecision(c) != Fault.PositionDecision.WAIT) {
                return true;
            }
        }
        return false;
    }

    private Fault.PositionDecision sweepDecision(Channel c) {
        long position = fetchPosition.get(c);
        if (position <= reported.getOrDefault(c, VectorClock.NOTHING)) {
            return Fault.PositionDecision.WAIT;
        }
        return world.fault().decidePosition(position, lastReturned.getOrDefault(c, VectorClock.NOTHING),
                fedThrough.getOrDefault(c, VectorClock.NOTHING));
    }

    private void sweep() {
        for (Channel c : declaration().consumed()) {
            Fault.PositionDecision decision = sweepDecision(c);
            if (decision == Fault.PositionDecision.WAIT) {
                continue;
            }
            long position = fetchPosition.get(c);
            reported.put(c, position);
            if (decision == Fault.PositionDecision.DROP) {
                continue;
            }
            List<Delivery> out = node.positionAdvance(c, position);
            world.stats().add(SimStats.Counter.POSITION_ADVANCES);
            if (node.held(c) > 0 && position - 1 > node.frontier(c)) {
                rememberedAdvances.put(c, position);
            }
            handle(out);
            // like Kafka Streams after a punctuation, a readable node commits after a sweep, so the
            // frontier it raised past trailing markers reaches a published snapshot (protocol.md §17)
            dirty |= view != null && world.fault().publishesSweeps();
        }
        dirty |= store.dirty() || node.state().unpersisted();
    }

    /**
     * The partitions the node wants probed that have no probe under way: like the Streams host, one
     * probe per partition at a time; a head the one under way does not cover asks again after it.
     */
    private List<Channel> probesToStart() {
        return node.state().probesWanted().stream()
                .filter(c -> probing.stream().noneMatch(t -> t.partition().equals(c))).toList();
    }

    /** Starts a probe of every partition in {@link #probesToStart}; each is read later, by {@link #answerProbe}. */
    private void startProbes() {
        for (Channel c : probesToStart()) {
            probing.add(node.startProbe(c));
        }
    }

    /** Reads the oldest probe's high watermark now, after its start (H7), and hands it to the node. */
    private void answerProbe() {
        Probes.Ticket t = probing.poll();
        List<Delivery> out = node.probeAnswered(t, world.broker().highWatermark(t.partition()));
        world.stats().add(SimStats.Counter.PROBES_ANSWERED);
        if (!out.isEmpty()) {
            world.stats().add(SimStats.Counter.PROBE_RELEASES);
        }
        handle(out);
        dirty |= store.dirty() || node.state().unpersisted();
    }

    private void truncate() {
        int before = stampOffsetEntries();
        BrokerOffsets.LogStarts answer = node.truncateToLogStarts();
        truncationBudget--;
        if (stampOffsetEntries() < before) {
            world.stats().add(SimStats.Counter.TRUNCATIONS);
        }
        if (!Collections.disjoint(node.state().stampChannels(), answer.unresolved())) {
            world.stats().add(SimStats.Counter.UNSEEN_CLAIMS_KEPT);
        }
        dirty |= store.dirty() || node.state().unpersisted();
    }

    /** Truncates and commits at once (a scripted sweep). */
    void truncateNow() {
        if (status == Status.UP) {
            truncationBudget++;
            truncate();
            commit();
        }
    }

    private int stampOffsetEntries() {
        int n = node.state().carried().offsets().size();
        for (VectorClock cc : node.state().channelClocks().values()) {
            n += cc.offsets().size();
        }
        return n;
    }

    // Deliveries and emissions ------------------------------------------------------------------

    /**
     * The record as CausalProcessor hands it in: its stamp encoded as the wire carries it and read
     * into this incarnation's one reused clock, which the node may only borrow for the call.
     */
    private InboundRecord read(InboundRecord r) {
        if (r.clock() == null) {
            return r;
        }
        stamps.read(r.tagged() ? ClockCodec.encode(new SendStamp(r.clock(), r.sender(), r.senderSeq()))
                : ClockCodec.encode(r.clock()));
        return new InboundRecord(r.channel(), r.offset(), stamps.clock(), stamps.sender(), stamps.seq(), r.key(),
                r.value(), r.timestamp(), r.headers());
    }

    private void handle(List<Delivery> out) {
        if (out.size() > 1) {
            world.stats().add(SimStats.Counter.CASCADES_LONGER_THAN_ONE);
        }
        foldedAfterDrain();
        for (Delivery d : out) {
            requireSentTag(d);
            long id = SimWorld.idOf(d.value());
            if (world.poisonOf(id) == SimWorld.Poison.UNDECODABLE || world.logicFails(name, failPermille, id)) {
                deadLetter(d.channel(), d.offset(), id, d.key(), d.value(), d.headers(), true);
                continue;
            }
            world.oracle().delivered(name, d.channel(), d.offset(), id);
            if (view != null) {
                view.folded(id);
            }
            world.stats().add(SimStats.Counter.DELIVERIES);
            int hop = SimWorld.hopOf(d.value());
            if (hop >= maxHops) {
                continue;
            }
            List<Route> routes = declaration().routes();
            for (int i = 0; i < routes.size(); i++) {
                Route route = routes.get(i);
                if (Math.floorMod(world.mix(name.hashCode(), id, i), 1000) < route.permille()) {
                    int key = route.spreadKeys() ? (int) Math.floorMod(world.mix(id, i, 7), 1000)
                            : SimWorld.keyOf(d.key());
                    send(route.topic(), key, hop + 1);
                }
            }
        }
    }

    /**
     * A delivery carries the sender tag its record was written with, whether it arrived in this call
     * or was held, persisted and restored: the node advances that sender's delivered-sequence mark
     * with it (§3.8), so another sender's tag would meet or miss that sender's claims wrongly.
     */
    private void requireSentTag(Delivery d) {
        SimBroker.Entry sent = world.broker().entry(d.channel(), d.offset());
        HeldEntry delivered = (HeldEntry) d;
        long sentSeq = sent.sender() == null ? -1 : sent.seq();
        if (!Objects.equals(delivered.sender(), sent.sender()) || delivered.seq() != sentSeq) {
            throw new SimViolation("TAG", "node=" + name + " delivered " + d.channel() + "@" + d.offset()
                    + " tagged " + delivered.sender() + "/" + delivered.seq() + "; it was written tagged "
                    + sent.sender() + "/" + sentSeq);
        }
    }

    private void foldedAfterDrain() {
        rememberedAdvances.entrySet().removeIf(e -> {
            boolean folded = node.held(e.getKey()) == 0 && node.frontier(e.getKey()) >= e.getValue() - 1;
            if (folded) {
                world.stats().add(SimStats.Counter.ADVANCES_FOLDED_AFTER_DRAIN);
            }
            return folded || node.held(e.getKey()) == 0;
        });
    }

    /**
     * Writes a dead letter of record {@code id} with the headers the host kept for it; {@code gated}
     * tells a delivered record from one handled unread at consumption.
     */
    private void deadLetter(Channel c, long offset, long id, byte[] key, byte[] value, byte[] headers, boolean gated) {
        if (deadLetters == null) {
            throw new IllegalStateException("Poison record without a dead-letter topic (fail closed); node=" + name
                    + ", record=" + world.oracle().fact(id));
        }
        crashPoint();
        world.oracle().deadLettered(name, c, offset, id, gated);
        world.stats().add(gated ? SimStats.Counter.DEAD_LETTERS_GATED : SimStats.Counter.DEAD_LETTERS_UNREADABLE);
        if (gated && restoredHeld.contains(c + "/" + offset)) {
            world.stats().add(SimStats.Counter.DEAD_LETTERS_RESTORED);
        }
        switch (world.fault().deadLetterWrite()) {
            case IN_STEP -> {
                world.broker().appendDeadLetter(openTxn(), deadLetters, id, key, value, headers);
            }
            case AUTO_COMMIT -> {
                SimBroker.Txn own = world.broker().begin(name);
                world.broker().appendDeadLetter(own, deadLetters, id, key, value, headers);
                world.broker().commit(own);
            }
            case NOWHERE -> {
                // the planted fault: handled, written nowhere
            }
            default -> throw new IllegalStateException("unreachable");
        }
        dirty = true;
    }

    /** A crash planted by {@link #crashMidStep} fires at a send or dead letter. */
    private void crashPoint() {
        if (sendsUntilCrash == 0) {
            throw new Crash();
        }
        if (sendsUntilCrash > 0) {
            sendsUntilCrash--;
        }
    }

    private void send(UUID topic, int key, int hop) {
        crashPoint();
        int partitions = world.broker().partitionCount(topic);
        Channel destination = new Channel(topic, Math.floorMod(key, partitions));
        long normalisations = node.seqNormalisations();
        long coarsened = node.stampsCoarsened();
        SendStamp stamp = node.prepareSend(world.fault().stampChannel(destination, partitions));
        world.stats().add(SimStats.Counter.SEQ_NORMALISATIONS, node.seqNormalisations() - normalisations);
        world.stats().add(SimStats.Counter.STAMPS_COARSENED, node.stampsCoarsened() - coarsened);
        if (stamp.clock().seqs().keySet().stream().anyMatch(k -> k.channel().isWholeTopic())) {
            world.stats().add(SimStats.Counter.WHOLE_TOPIC_CLAIMS);
        }
        world.onSend(this, destination, stamp);
        long id = world.oracle().nextId();
        long offset = world.broker().append(openTxn(), destination, id, SimWorld.key(key), SimWorld.value(id, hop),
                stamp.clock(), stamp.sender(), stamp.seq());
        world.oracle().emitted(id, name, destination, offset, true);
        sendsThisIncarnation++;
        dirty = true;
    }

    /** The open transaction of the step: the task's when the node shares one, else its own. */
    private SimBroker.Txn openTxn() {
        if (task != null) {
            return task.txn(this);
        }
        if (txn == null) {
            txn = world.broker().begin(name);
        }
        return txn;
    }

    // Views -------------------------------------------------------------------------------------

    /** Records this node's gate held on arrival, across incarnations (anti-vacuity per stage). */
    int holds() {
        return holds;
    }

    Declaration declaration() {
        return declarations.get(version);
    }

    Status status() {
        return status;
    }

    boolean up() {
        return status == Status.UP;
    }

    /** The read view of a readable node, or null. */
    SimReadView readView() {
        return view;
    }

    /** Whether a readable node is between its pre-commit persist and its commit. */
    boolean inCommitWindow() {
        return preCommitted;
    }

    /** The running node, or null while down. */
    CausalNode causalNode() {
        return node;
    }

    /** Committed and fully caught up: no buffered records, nothing fetchable, nothing uncommitted. */
    boolean idle() {
        if (status != Status.UP || dirty) {
            return false;
        }
        for (Channel c : declaration().consumed()) {
            if (!buffers.get(c).isEmpty() || fetchPosition.get(c) < world.broker().lastStable(c)) {
                return false;
            }
        }
        return true;
    }

    /** Up, with nothing uncommitted: a crash now restarts from exactly what was just committed. */
    boolean committedClean() {
        return status == Status.UP && !dirty;
    }

    boolean redeployed() {
        return version > 0;
    }

    /** Partition 0 of the node's dead-letter topic, or null without one. */
    Channel deadLetterChannel() {
        return deadLetters;
    }

    /** Permille of delivered records the node's logic fails on (deterministically per record). */
    int failPermille() {
        return failPermille;
    }

    /** How many times the node was initialised (starts, restarts, redeploys). */
    int incarnations() {
        return incarnations;
    }

    /** Sends made by the current incarnation, committed or not. */
    int sendsThisIncarnation() {
        return sendsThisIncarnation;
    }

    /** The lowest position of this node on {@code c} that retention must not pass (H6), or null. */
    Long retentionFloor(Channel c) {
        if (!declaration().consumed().contains(c)) {
            return null;
        }
        if (status == Status.WAITING) {
            // a declared stage that has not started yet is a subscriber too: letting retention pass
            // it would make it a late joiner (the section 5.2 window), which only directed probes test
            return world.broker().logStart(c);
        }
        boolean passHolds = world.retentionPassesHolds();
        Long floor = passHolds ? committedPositions.get(c) : committedFloors.get(c);
        Long inFlight = status != Status.UP ? null : passHolds ? consumerPosition(c) : retentionFloorNow(c);
        if (floor == null) {
            // nothing committed yet: a restart would start over from the earliest offset, so the
            // stage is still reading from its first start position (a from-start consumer, §5.2)
            floor = firstStarts.get(c);
        }
        if (floor == null) {
            return inFlight;
        }
        return inFlight == null ? floor : Math.min(floor, inFlight);
    }

    /**
     * The position committed for a channel: the next record not yet fed, or, with nothing buffered,
     * the consumer position (past trailing markers, as Kafka Streams commits for drained partitions).
     */
    private long consumerPosition(Channel c) {
        SimBroker.Fetched next = buffers.get(c).peek();
        return next == null ? fetchPosition.get(c) : next.offset();
    }

    /**
     * The lowest offset this incarnation still needs: the next record to feed, or a held record.
     * Retention must not pass held records either: the log-start truncation bound assumes every
     * subscriber delivered what retention deleted (protocol.md §1.5 item 5, §8.2).
     */
    private long retentionFloorNow(Channel c) {
        long floor = consumerPosition(c);
        long head = node.heldHead(c);
        return head == VectorClock.NOTHING ? floor : Math.min(floor, head);
    }

    Map<Channel, Long> committedPositions() {
        return Collections.unmodifiableMap(committedPositions);
    }

    @Override
    public String toString() {
        return name;
    }

    // Builder ------------------------------------------------------------------------------------

    static Builder builder(SimWorld world, String name) {
        return new Builder(world, name);
    }

    /** Declares a node: its first declaration, later redeploys, start policy, visibility and budgets. */
    static final class Builder {
        private final SimWorld world;
        private final String name;
        private final List<Declaration> declarations = new ArrayList<>();
        private final SortedSet<Channel> consumed = new TreeSet<>();
        private final SortedSet<UUID> sinks = new TreeSet<>();
        private final List<Route> routes = new ArrayList<>();
        private StartAt startAt = StartAt.EARLIEST;
        private int maxHops = Integer.MAX_VALUE;
        private int maxPoll = 3;
        private int crashes;
        private int crashHolding;
        private int truncations;
        private Predicate<SimWorld> startWhen = w -> true;
        private Predicate<SimWorld> redeployWhen = w -> true;
        private final SortedSet<Channel> slow = new TreeSet<>();
        private String deadLetters;
        private int failPermille;
        private final SortedSet<UUID> hidden = new TreeSet<>();
        private SimTask task;
        private boolean readable;

        private Builder(SimWorld world, String name) {
            this.world = world;
            this.name = name;
        }

        /** Consumes every partition of the topics. */
        Builder consumes(String... topics) {
            for (String t : topics) {
                consumed.addAll(world.broker().channels(t));
            }
            return this;
        }

        Builder consumes(String topic, int partition) {
            consumed.add(world.broker().channel(topic, partition));
            return this;
        }

        /** Declares sinks without routing to them. */
        Builder sinks(String... topics) {
            for (String t : topics) {
                sinks.add(world.broker().id(t));
            }
            return this;
        }

        /** Declares a sink and forwards to it with probability permille/1000, keeping the input key. */
        Builder route(String topic, int permille) {
            return route(topic, permille, false);
        }

        Builder route(String topic, int permille, boolean spreadKeys) {
            UUID id = world.broker().id(topic);
            sinks.add(id);
            routes.add(new Route(id, permille, spreadKeys));
            return this;
        }

        /** Closes the current declaration; what follows declares the next deployment (a redeploy). */
        Builder thenRedeploy() {
            declarations.add(new Declaration(consumed, sinks, routes));
            consumed.clear();
            sinks.clear();
            routes.clear();
            return this;
        }

        Builder startAt(StartAt policy) {
            this.startAt = policy;
            return this;
        }

        Builder startWhen(Predicate<SimWorld> condition) {
            this.startWhen = condition;
            return this;
        }

        /** Polls these topics rarely, so the node lags on them (races with its other inputs). */
        Builder slow(String... topics) {
            for (String t : topics) {
                slow.addAll(world.broker().channels(t));
            }
            return this;
        }

        /** Holds the pending redeploys until the condition holds. */
        Builder redeployWhen(Predicate<SimWorld> condition) {
            this.redeployWhen = condition;
            return this;
        }

        /** Dead-letters poison records to partition 0 of {@code topic} instead of failing. */
        Builder deadLetters(String topic) {
            this.deadLetters = topic;
            return this;
        }

        /** Makes the node's logic fail on about permille/1000 of the records delivered to it. */
        Builder failing(int permille) {
            this.failPermille = permille;
            return this;
        }

        /**
         * Hides topics from this node's principal (it may not describe them) while other nodes see
         * them: its truncation sweeps cannot resolve them (see {@link SimHiddenTopics}).
         */
        Builder cannotSee(String... topics) {
            for (String t : topics) {
                hidden.add(world.broker().id(t));
            }
            return this;
        }

        /**
         * Hosts the node in a task shared with other stages (fan-out): one transaction, crashes and
         * restarts together. Dead letters of such a node would be owned by the task, so none are declared.
         */
        Builder inTask(SimTask shared) {
            this.task = shared;
            return this;
        }

        /**
         * A stateful stage whose committed state clients read (protocol.md §17): the host keeps a
         * read view, and its commits take two steps (the pre-commit persist, then the commit).
         */
        Builder readable() {
            this.readable = true;
            return this;
        }

        Builder maxHops(int hops) {
            this.maxHops = hops;
            return this;
        }

        Builder maxPoll(int records) {
            this.maxPoll = records;
            return this;
        }

        Builder crashes(int budget) {
            this.crashes = budget;
            return this;
        }

        /**
         * Crashes like {@link #crashes}, but offers its crash actions only while the node holds at
         * least {@code held} records (a mid-step crash may still release some in the step it
         * interrupts), so that restarts restore hold queues: a crash at random mostly finds them empty.
         */
        Builder crashesHolding(int budget, int held) {
            this.crashes = budget;
            this.crashHolding = held;
            return this;
        }

        Builder truncations(int budget) {
            this.truncations = budget;
            return this;
        }

        SimNode build() {
            declarations.add(new Declaration(consumed, sinks, routes));
            for (Declaration d : declarations) {
                // Kafka's READ and WRITE imply DESCRIBE: a stage always sees the topics it consumes or writes
                d.consumed().forEach(c -> requireVisible(c.topicId()));
                d.sinks().forEach(this::requireVisible);
            }
            if (deadLetters != null) {
                requireVisible(world.broker().id(deadLetters));
            }
            if (readable && task != null) {
                throw new IllegalArgumentException("A simulated readable node runs alone; node=" + name);
            }
            if (deadLetters != null && task != null) {
                throw new IllegalArgumentException("A simulated node in a shared task has no dead letters of its own;"
                        + " node=" + name + ", task=" + task.name);
            }
            SimNode n = new SimNode(this);
            world.add(n);
            return n;
        }

        private void requireVisible(UUID topic) {
            if (hidden.contains(topic)) {
                throw new IllegalArgumentException("A simulated node cannot consume or write a topic hidden from it;"
                        + " node=" + name + ", topic=" + world.broker().name(topic));
            }
        }
    }
}
