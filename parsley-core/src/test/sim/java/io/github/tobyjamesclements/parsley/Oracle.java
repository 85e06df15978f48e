package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiPredicate;

/**
 * Ground truth of the simulator (protocol.md §14.2): real causality, learnt from what actors
 * delivered, observed and emitted, never from a clock.
 *
 * <p>Each business emission records its emitter's causal past: everything the emitter delivered
 * (with its ancestors) plus its own prior emissions, transitively closed. Plain producers add
 * what they observed and their own acknowledged sends. Node state is transactional: a working
 * copy is committed with the node's transaction and rolled back on abort, so an aborted step
 * teaches the oracle nothing. Every delivery is judged by the registered {@link Invariant}s before
 * it is recorded; completeness is judged at drain by {@link Validation}s.
 *
 * <p>A dead letter is a record a node handled without delivering it to its logic: it counts as
 * handled (for duplicates, completeness and the frontier) but joins nobody's past, since nothing
 * follows from it. Which records are poison for which node is ground truth the world supplies.
 */
final class Oracle {

    /** The life of a record's transaction. */
    enum Status { PENDING, COMMITTED, ABORTED }

    /** What the oracle knows about one business record. */
    static final class Fact {
        final long id;
        final Channel channel;
        final long offset;
        final String emitter;
        final BitSet ancestors;
        Status status = Status.PENDING;

        Fact(long id, Channel channel, long offset, String emitter, BitSet ancestors) {
            this.id = id;
            this.channel = channel;
            this.offset = offset;
            this.emitter = emitter;
            this.ancestors = ancestors;
        }

        @Override
        public String toString() {
            return "#" + id + "@" + channel + "/" + offset + " by " + emitter;
        }
    }

    /** The causal knowledge of one actor; copied for transactions. */
    static final class Knowledge {
        final BitSet past;
        /** Handled records: delivered to the logic or dead-lettered. */
        final BitSet delivered;
        final BitSet deadLettered;
        final TreeMap<Channel, Long> lastDelivered;
        final TreeMap<Channel, Long> baselines;
        long deliveries;

        Knowledge() {
            this(new BitSet(), new BitSet(), new BitSet(), new TreeMap<>(), new TreeMap<>(), 0);
        }

        private Knowledge(BitSet past, BitSet delivered, BitSet deadLettered, TreeMap<Channel, Long> lastDelivered,
                TreeMap<Channel, Long> baselines, long deliveries) {
            this.past = past;
            this.delivered = delivered;
            this.deadLettered = deadLettered;
            this.lastDelivered = lastDelivered;
            this.baselines = baselines;
            this.deliveries = deliveries;
        }

        Knowledge copy() {
            return new Knowledge((BitSet) past.clone(), (BitSet) delivered.clone(), (BitSet) deadLettered.clone(),
                    new TreeMap<>(lastDelivered), new TreeMap<>(baselines), deliveries);
        }
    }

    /** One actor: a node (transactional knowledge) or a plain producer. */
    static final class Actor {
        final String name;
        final boolean node;
        Knowledge committed = new Knowledge();
        Knowledge working = new Knowledge();
        SortedSet<Channel> consumed = new TreeSet<>();

        Actor(String name, boolean node) {
            this.name = name;
            this.node = node;
        }
    }

    /** One delivery being judged. */
    record Judged(Actor actor, Fact fact, Channel channel, long offset) {
    }

    private final List<Fact> facts = new ArrayList<>();
    private final Map<Channel, List<Fact>> byChannel = new TreeMap<>();
    private final Map<String, Actor> actors = new TreeMap<>();
    private final List<Invariant> invariants;
    private final BiPredicate<String, Long> poison;

    Oracle(List<Invariant> invariants) {
        this(invariants, (node, id) -> false);
    }

    /** {@code poison} tells whether a record must be dead-lettered by a node, never delivered to its logic. */
    Oracle(List<Invariant> invariants, BiPredicate<String, Long> poison) {
        this.invariants = List.copyOf(invariants);
        this.poison = poison;
    }

    Actor actor(String name, boolean node) {
        return actors.computeIfAbsent(name, n -> new Actor(n, node));
    }

    Actor actor(String name) {
        Actor a = actors.get(name);
        if (a == null) {
            throw new IllegalArgumentException("Unknown oracle actor; actor=" + name);
        }
        return a;
    }

    // Emission ---------------------------------------------------------------------------------

    /** The id the next emission will get; the emitter writes it into the record's value. */
    long nextId() {
        return facts.size();
    }

    /**
     * Records an emission with the emitter's causal past. A node's emission joins its own past at
     * once (program order); a plain producer's joins only when acknowledged ({@link #acknowledged}).
     */
    Fact emitted(long id, String emitter, Channel c, long offset, boolean causal) {
        if (id != facts.size()) {
            throw new IllegalStateException("Oracle ids out of step; id=" + id + ", expected=" + facts.size());
        }
        Actor a = actor(emitter);
        BitSet ancestors = causal ? (BitSet) a.working.past.clone() : new BitSet();
        Fact f = new Fact(id, c, offset, emitter, ancestors);
        facts.add(f);
        byChannel.computeIfAbsent(c, x -> new ArrayList<>()).add(f);
        if (a.node && causal) {
            a.working.past.set((int) id);
        }
        return f;
    }

    /** A plain producer learnt the offset of its own send: it is in the producer's past from now on. */
    void acknowledged(String producer, long id) {
        actor(producer).working.past.set((int) id);
    }

    /** A plain consumer observed a record: the record and its ancestors join the actor's past. */
    void observed(String actor, long id) {
        Actor a = actor(actor);
        Fact f = fact(id);
        a.working.past.or(f.ancestors);
        a.working.past.set((int) id);
    }

    void committed(List<Long> ids) {
        ids.forEach(id -> fact(id).status = Status.COMMITTED);
    }

    void aborted(List<Long> ids) {
        ids.forEach(id -> fact(id).status = Status.ABORTED);
    }

    // Node knowledge ---------------------------------------------------------------------------

    /** Sets what the node consumes now (a redeploy may change it); forgets baselines of dropped inputs. */
    void declare(String node, SortedSet<Channel> consumed) {
        Actor a = actor(node);
        a.consumed = new TreeSet<>(consumed);
        a.working.baselines.keySet().retainAll(consumed);
    }

    /** The node's first consumer position on a channel (per consumption period). */
    void baseline(String node, Channel c, long position) {
        actor(node).working.baselines.putIfAbsent(c, position);
    }

    Long baselineOf(String node, Channel c) {
        return actor(node).working.baselines.get(c);
    }

    /** Judges a delivery by every invariant, then records it. */
    void delivered(String node, Channel c, long offset, long id) {
        Actor a = actor(node);
        Fact f = id >= 0 && id < facts.size() ? facts.get((int) id) : null;
        Judged j = new Judged(a, f, c, offset);
        for (Invariant i : invariants) {
            i.onDelivery(this, j);
        }
        Knowledge k = a.working;
        k.delivered.set((int) id);
        k.past.or(f.ancestors);
        k.past.set((int) id);
        k.lastDelivered.put(c, offset);
        k.deliveries++;
    }

    /**
     * Judges a dead letter, then records the record as handled. A gated one (the gate delivered it,
     * then its decoding or logic failed) is judged like a delivery and keeps the channel's FIFO
     * position; an ungated one (unreadable headers, handled when consumed) only must be known, poison
     * and new.
     */
    void deadLettered(String node, Channel c, long offset, long id, boolean gated) {
        Actor a = actor(node);
        Fact f = id >= 0 && id < facts.size() ? facts.get((int) id) : null;
        Judged j = new Judged(a, f, c, offset);
        for (Invariant i : invariants) {
            i.onDeadLetter(this, j, gated);
        }
        Knowledge k = a.working;
        k.delivered.set((int) id);
        k.deadLettered.set((int) id);
        if (gated) {
            k.lastDelivered.put(c, offset);
        }
    }

    /** Whether {@code node} must dead-letter the record rather than deliver it to its logic. */
    boolean poison(String node, long id) {
        return poison.test(node, id);
    }

    void commit(String node) {
        Actor a = actor(node);
        a.committed = a.working;
        a.working = a.committed.copy();
    }

    void abort(String node) {
        Actor a = actor(node);
        a.working = a.committed.copy();
    }

    // Views ------------------------------------------------------------------------------------

    Fact fact(long id) {
        return facts.get((int) id);
    }

    List<Fact> facts(Channel c) {
        return byChannel.getOrDefault(c, List.of());
    }

    int size() {
        return facts.size();
    }

    long deliveries(String node) {
        return actor(node).committed.deliveries;
    }
}
