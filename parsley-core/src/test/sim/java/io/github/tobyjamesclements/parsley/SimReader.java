package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A client session that reads stateful nodes' committed state with causal tokens (protocol.md §17),
 * driven by the world one action at a time.
 *
 * <p>The session's token is built as the product builds one: from a producer's clock after its
 * sends (its own writes, {@code CausalClock.token()}), from a record it saw (the record's stamp and
 * its own coordinate, a delivered {@code Message}'s token) and from every read's answer (the token
 * read with merged with what the committed state reflects); tokens are merged by the installed
 * {@link Fault}'s merge (honestly, the pointwise maximum). Beside it the session keeps the token's
 * true causal past as the oracle knows it, never from a clock: a producer's past, a record with its
 * ancestors, every record a value read reflects with their ancestors.
 *
 * <p>A read goes through the read gate of the node's last published commit ({@link SimReadView})
 * with end offsets read at the read, after the token existed; the installed {@link Fault} decides
 * the gate. An answered read is judged by the obligations ({@link Invariant#onRead}); a read not
 * answered is kept and retried with the same token once the world has drained, when it must be
 * answered ({@code READ LIVENESS}).
 */
final class SimReader {

    /** An answered read, as the obligations judge it. */
    record Read(String session, SimNode node, VectorClock token, BitSet past, BitSet value, BitSet previous) {
    }

    /** A read not answered, kept for the retry at drain. */
    private record Pending(SimNode node, VectorClock token, BitSet past) {
    }

    /** The session's last answered read of a node: its value and the incarnation that published it. */
    private record Last(BitSet value, int incarnation) {
    }

    private static final int MAX_PENDING = 24;

    final String name;
    private final SimWorld world;
    private final SplittableRandom rng;
    private final List<SimNode> targets;
    private final List<SimProducer> writers;
    private final List<Channel> seen;
    private int budget;
    private int sessions;
    private VectorClock token = new VectorClock();
    private BitSet past = new BitSet();
    private final Map<String, Last> last = new TreeMap<>();
    private final List<Pending> pending = new ArrayList<>();

    private SimReader(Builder b) {
        this.world = b.world;
        this.name = b.name;
        this.rng = b.world.split();
        this.targets = List.copyOf(b.targets);
        this.writers = List.copyOf(b.writers);
        this.seen = List.copyOf(b.seen);
        this.budget = b.budget;
    }

    /**
     * One action at a time, at the pace of one actor among many: the client takes a writer's token,
     * sees a record, reads a node or starts a new session, chosen from its own random stream.
     */
    void actions(List<SimWorld.Action> out) {
        if (budget > 0) {
            out.add(new SimWorld.Action(() -> name + " acts", 2, this::act, null));
        }
    }

    private void act() {
        budget--;
        int pick = rng.nextInt(20);
        if (pick < 4 && !writers.isEmpty()) {
            takeWriterToken();
        } else if (pick < 9 && !seen.isEmpty()) {
            seeRecord();
        } else if (pick < 19) {
            read(targets.get(rng.nextInt(targets.size())), token, past, false);
        } else {
            newSession();
        }
    }

    // Learning -------------------------------------------------------------------------------------

    /** The client wrote through a producer: the producer's token, and its true past. */
    private void takeWriterToken() {
        SimProducer p = writers.get(rng.nextInt(writers.size()));
        token = world.fault().mergeTokens(token, p.token());
        past.or(world.oracle().actor(p.name).working.past);
        world.trace(name + " took " + p.name + "'s token");
    }

    /**
     * The client saw a committed record (delivered to it, or read plainly): the record's stamp and
     * its own coordinate, and its true past, the record with its ancestors. Mostly the latest
     * record of the channel, which readers are least likely to have delivered yet.
     */
    private void seeRecord() {
        Channel c = seen.get(rng.nextInt(seen.size()));
        List<Oracle.Fact> committed = new ArrayList<>();
        for (Oracle.Fact f : world.oracle().facts(c)) {
            if (f.status == Oracle.Status.COMMITTED && f.offset >= world.broker().logStart(c)) {
                committed.add(f);
            }
        }
        if (committed.isEmpty()) {
            return;
        }
        Oracle.Fact f = rng.nextBoolean() ? committed.get(committed.size() - 1)
                : committed.get(rng.nextInt(committed.size()));
        SimBroker.Entry e = world.broker().entry(c, f.offset);
        VectorClock seenToken = e.clock() == null ? new VectorClock() : VectorClock.copyOf(e.clock());
        seenToken.advanceTo(c, f.offset);
        token = world.fault().mergeTokens(token, seenToken);
        past.or(f.ancestors);
        past.set((int) f.id);
        world.trace(name + " saw " + f);
    }

    private void newSession() {
        sessions++;
        token = new VectorClock();
        past = new BitSet();
        last.clear();
        world.trace(name + " new session " + sessions);
    }

    // Reading --------------------------------------------------------------------------------------

    /**
     * Reads {@code n}'s committed state with {@code t}, whose true past is {@code p}: answered when
     * the gate of its last commit finds every claim on the consumed channels met. An answer becomes
     * the session's token and past; a read not answered is kept for the retry at drain (unless it is
     * that retry), and returns false.
     */
    private boolean read(SimNode n, VectorClock t, BitSet p, boolean retry) {
        count(n, t);
        SimReadView.Published commit = n.readView().lastCommit();
        if (commit == null) {
            world.stats().add(SimStats.Counter.READS_NO_OWNER);
            keep(n, t, p, retry);
            return false;
        }
        Map<Channel, Long> ends = new TreeMap<>();
        for (Channel c : commit.snapshot().probesWanted(t)) {
            ends.put(c, world.broker().highWatermark(c));
        }
        List<Gate.Unmet> unmet = world.fault().readGate(commit.snapshot(), t, ends);
        if (!unmet.isEmpty()) {
            world.stats().add(SimStats.Counter.READS_UNMET);
            keep(n, t, p, retry);
            if (retry) {
                throw new SimViolation("READ LIVENESS", "session=" + name + " read of node=" + n.name
                        + " not answered after the world drained; unmet=" + unmet + ", token=" + t);
            }
            return false;
        }
        BitSet value = n.readView().value(commit);
        Last before = last.get(n.name);
        if (before != null && before.incarnation() != commit.incarnation()) {
            world.stats().add(SimStats.Counter.READS_AFTER_RESTART);
        }
        if (last.keySet().stream().anyMatch(other -> !other.equals(n.name))) {
            world.stats().add(SimStats.Counter.READS_ACROSS_NODES);
        }
        world.onRead(new Read(name, n, VectorClock.copyOf(t), (BitSet) p.clone(), value,
                before == null ? null : before.value()));
        world.stats().add(SimStats.Counter.READS_ANSWERED);
        if (!ends.isEmpty()) {
            world.stats().add(SimStats.Counter.READS_DECIDED_BY_END_OFFSETS);
        }
        token = world.fault().mergeTokens(t, commit.snapshot().reflects());
        past = (BitSet) p.clone();
        for (int id = value.nextSetBit(0); id >= 0; id = value.nextSetBit(id + 1)) {
            past.or(world.oracle().fact(id).ancestors);
            past.set(id);
        }
        last.put(n.name, new Last(value, commit.incarnation()));
        world.trace(name + " read " + n.name + ": " + value.cardinality() + " records");
        return true;
    }

    private void keep(SimNode n, VectorClock t, BitSet p, boolean retry) {
        if (!retry && pending.size() < MAX_PENDING) {
            pending.add(new Pending(n, VectorClock.copyOf(t), (BitSet) p.clone()));
        }
    }

    /** Counts what a read's token asks of the node: whole-topic claims on its topics, claims elsewhere. */
    private void count(SimNode n, VectorClock t) {
        SortedSet<Channel> consumed = n.declaration().consumed();
        if (n.inCommitWindow()) {
            world.stats().add(SimStats.Counter.READS_IN_COMMIT_WINDOW);
        }
        boolean wholeTopic = false;
        boolean elsewhere = false;
        for (int i = 0; i < t.seqCount(); i++) {
            Channel c = t.seqKey(i).channel();
            boolean mine = c.isWholeTopic() ? consumed.stream().anyMatch(c::sameTopic) : consumed.contains(c);
            wholeTopic |= mine && c.isWholeTopic();
            elsewhere |= !mine;
        }
        for (int i = 0; i < t.offsetCount(); i++) {
            elsewhere |= !consumed.contains(t.channel(i));
        }
        if (wholeTopic) {
            world.stats().add(SimStats.Counter.READS_WITH_WHOLE_TOPIC_CLAIMS);
        }
        if (elsewhere) {
            world.stats().add(SimStats.Counter.READS_CLAIMING_UNCONSUMED);
        }
    }

    /**
     * Once the world has drained: every read that was not answered is retried with its token, and
     * the session's token is read at every node; each must be answered now ({@code READ LIVENESS}).
     */
    void retryAtDrain() {
        List<Pending> retries = new ArrayList<>(pending);
        for (SimNode n : targets) {
            retries.add(new Pending(n, VectorClock.copyOf(token), (BitSet) past.clone()));
        }
        for (Pending r : retries) {
            world.stats().add(SimStats.Counter.READS_RETRIED_AT_DRAIN);
            if (r.node().readView().lastCommit() == null) {
                throw new SimViolation("READ LIVENESS", "session=" + name + " node=" + r.node().name
                        + " has no readable state after the world drained");
            }
            read(r.node(), r.token(), r.past(), true);
        }
        pending.clear();
    }

    static Builder builder(SimWorld world, String name) {
        return new Builder(world, name);
    }

    /** Declares a client: the nodes it reads, the producers it writes through, the topics it sees, its budget. */
    static final class Builder {
        private final SimWorld world;
        private final String name;
        private final List<SimNode> targets = new ArrayList<>();
        private final List<SimProducer> writers = new ArrayList<>();
        private final SortedSet<Channel> seen = new TreeSet<>();
        private int budget = 30;

        private Builder(SimWorld world, String name) {
            this.world = world;
            this.name = name;
        }

        /** Reads these readable nodes. */
        Builder reads(List<SimNode> nodes) {
            for (SimNode n : nodes) {
                if (n.readView() == null) {
                    throw new IllegalArgumentException("A simulated client reads readable nodes only; node=" + n.name);
                }
                targets.add(n);
            }
            return this;
        }

        /** Writes through these producers: takes their tokens. */
        Builder writesThrough(SimProducer... producers) {
            writers.addAll(List.of(producers));
            return this;
        }

        /** Sees committed records of every partition of these topics. */
        Builder sees(String... topics) {
            for (String t : topics) {
                seen.addAll(world.broker().channels(t));
            }
            return this;
        }

        /** The number of actions the client takes (token takings, sightings, reads, new sessions). */
        Builder actions(int n) {
            this.budget = n;
            return this;
        }

        SimReader build() {
            SimReader r = new SimReader(this);
            world.add(r);
            return r;
        }
    }
}
