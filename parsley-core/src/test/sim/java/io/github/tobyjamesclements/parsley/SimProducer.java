package io.github.tobyjamesclements.parsley;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * An edge producer that stamps like {@code CausalClock} (protocol.md §6.6): a plain client, not a
 * stage. It may consume plainly (read-committed, no gate) and {@code observe} what it reads:
 * merge the record's clock and advance to its coordinate. It records its own produced offsets only
 * when the acknowledgement arrives, stamps {@code vc} only (no sender tag), and may pipeline (send
 * before earlier acknowledgements arrive) or lose acknowledgements altogether. An unstamped
 * producer writes no headers: its records claim nothing and the oracle gives them no past.
 *
 * <p>Transactions may stay open across any number of other actors' steps, and may be held open
 * until a world condition holds (the open sibling transaction of protocol.md §16.1). A poisoning
 * producer writes some records no stage can handle: unreadable causal headers or an undecodable value.
 */
final class SimProducer {

    private record Pending(long id, Channel channel, long offset) {
    }

    final String name;
    private final SimWorld world;
    private final SplittableRandom rng;
    private final List<UUID> targets;
    private final int keys;
    private final boolean transactional;
    private final int maxTxnRecords;
    private final int abortPermille;
    private final int lostAckPermille;
    private final boolean sequential;
    private final boolean stamped;
    private final int poisonPermille;
    private final Predicate<SimWorld> startWhen;
    private final Predicate<SimWorld> commitWhen;
    private final SortedSet<Channel> observes;
    private final TreeMap<Channel, Long> observePosition = new TreeMap<>();
    private final VectorClock clock = new VectorClock();
    private final ArrayDeque<Pending> unacked = new ArrayDeque<>();
    private int remaining;
    private int sent;
    private SimBroker.Txn txn;
    private int txnRecords;

    private SimProducer(Builder b) {
        this.world = b.world;
        this.name = b.name;
        this.rng = b.world.split();
        this.targets = List.copyOf(b.targets);
        this.keys = b.keys;
        this.transactional = b.transactional;
        this.maxTxnRecords = b.maxTxnRecords;
        this.abortPermille = b.abortPermille;
        this.lostAckPermille = b.lostAckPermille;
        this.sequential = b.sequential;
        this.stamped = b.stamped;
        this.poisonPermille = b.poisonPermille;
        this.startWhen = b.startWhen;
        this.commitWhen = b.commitWhen;
        this.observes = new TreeSet<>(b.observes);
        this.remaining = b.records;
        observes.forEach(c -> observePosition.put(c, 0L));
        world.oracle().actor(name, false);
    }

    void actions(List<SimWorld.Action> out) {
        if (!startWhen.test(world)) {
            return;
        }
        if (remaining > 0 && (!sequential || unacked.isEmpty())
                && (!transactional || txn == null || txnRecords < maxTxnRecords)) {
            out.add(new SimWorld.Action(() -> name + " send", 4, this::send, null));
        }
        if (!unacked.isEmpty()) {
            out.add(new SimWorld.Action(() -> name + " ack", 3, this::ack, null));
        }
        if (txn != null && commitWhen.test(world)) {
            out.add(new SimWorld.Action(() -> name + " end-txn", 2, this::endTxn, null));
        }
        for (Channel c : observes) {
            if (observePosition.get(c) < world.broker().lastStable(c)) {
                out.add(new SimWorld.Action(() -> name + " observe " + world.broker().name(c), 3, () -> observe(c), null));
            }
        }
    }

    private void send() {
        UUID topic = targets.size() == 1 ? targets.get(0) : targets.get(sent % targets.size());
        int key = rng.nextInt(keys);
        Channel destination = new Channel(topic, Math.floorMod(key, world.broker().partitionCount(topic)));
        VectorClock stamp = stamped ? VectorClock.copyOf(clock) : null;
        long id = world.oracle().nextId();
        if (poisonPermille > 0 && rng.nextInt(1000) < poisonPermille) {
            world.poison(id, rng.nextBoolean() ? SimWorld.Poison.UNREADABLE : SimWorld.Poison.UNDECODABLE);
        }
        long offset;
        if (transactional) {
            if (txn == null) {
                txn = world.broker().begin(name);
                txnRecords = 0;
            }
            offset = world.broker().append(txn, destination, id, SimWorld.key(key), SimWorld.value(id, 0), stamp, null,
                    -1);
            txnRecords++;
            world.oracle().emitted(id, name, destination, offset, stamped);
        } else {
            offset = world.broker().appendCommitted(name, destination, id, SimWorld.key(key), SimWorld.value(id, 0),
                    stamp);
            world.oracle().emitted(id, name, destination, offset, stamped);
            world.oracle().committed(List.of(id));
        }
        unacked.add(new Pending(id, destination, offset));
        remaining--;
        sent++;
    }

    /** The acknowledgement of the oldest unacknowledged send: {@code recordProduced}, unless it is lost. */
    private void ack() {
        Pending p = unacked.poll();
        if (!stamped || rng.nextInt(1000) < lostAckPermille) {
            return;
        }
        clock.advanceTo(p.channel(), p.offset());
        world.oracle().acknowledged(name, p.id());
    }

    private void endTxn() {
        if (rng.nextInt(1000) < abortPermille) {
            world.broker().abort(txn);
            world.oracle().aborted(txn.recordIds);
            world.stats().add(SimStats.Counter.ABORTED_TRANSACTIONS);
        } else {
            world.broker().commit(txn);
            world.oracle().committed(txn.recordIds);
        }
        txn = null;
    }

    /** A plain read-committed poll of one record, then {@code observe(record)}. */
    private void observe(Channel c) {
        SimBroker.Fetch f = world.broker().fetch(c, observePosition.get(c), 1);
        if (f.records().isEmpty()) {
            observePosition.put(c, f.position());
            return;
        }
        SimBroker.Fetched r = f.records().get(0);
        observePosition.put(c, r.offset() + 1);
        if (stamped) {
            if (r.entry().clock() != null) {
                clock.mergeMax(r.entry().clock());
            }
            clock.advanceTo(c, r.offset());
            world.oracle().observed(name, r.entry().recordId());
        }
    }

    /** Whether every record was sent and every transaction ended. */
    boolean done() {
        return remaining == 0 && txn == null;
    }

    boolean transactionOpen() {
        return txn != null;
    }

    int sent() {
        return sent;
    }

    /**
     * The producer's token ({@code CausalClock.token()}): everything its clock observed and every
     * send it recorded as produced, a copy.
     */
    VectorClock token() {
        return VectorClock.copyOf(clock);
    }

    /** The lowest observed position (retention must not pass a plain consumer either), or null. */
    Long retentionFloor(Channel c) {
        return observePosition.get(c);
    }

    static Builder builder(SimWorld world, String name) {
        return new Builder(world, name);
    }

    /** Declares a producer: targets, volume, transactions, acknowledgements and observations. */
    static final class Builder {
        private final SimWorld world;
        private final String name;
        private final List<UUID> targets = new ArrayList<>();
        private final SortedSet<Channel> observes = new TreeSet<>();
        private int records = 10;
        private int keys = 8;
        private boolean transactional = true;
        private int maxTxnRecords = 3;
        private int abortPermille = 150;
        private int lostAckPermille;
        private boolean sequential = true;
        private boolean stamped = true;
        private int poisonPermille;
        private Predicate<SimWorld> startWhen = w -> true;
        private Predicate<SimWorld> commitWhen = w -> true;

        private Builder(SimWorld world, String name) {
            this.world = world;
            this.name = name;
        }

        /** Writes to the topics in turn. */
        Builder writes(String... topics) {
            for (String t : topics) {
                targets.add(world.broker().id(t));
            }
            return this;
        }

        Builder records(int n) {
            this.records = n;
            return this;
        }

        Builder keys(int n) {
            this.keys = n;
            return this;
        }

        /** Transactions of up to {@code maxRecords}, aborting with probability permille/1000. */
        Builder transactions(int maxRecords, int abortPermille) {
            this.transactional = true;
            this.maxTxnRecords = maxRecords;
            this.abortPermille = abortPermille;
            return this;
        }

        /** Non-transactional: records are visible at once and leave no markers. */
        Builder plain() {
            this.transactional = false;
            return this;
        }

        /** Sends without awaiting earlier acknowledgements; some acknowledgements may be lost. */
        Builder pipelining(int lostAckPermille) {
            this.sequential = false;
            this.lostAckPermille = lostAckPermille;
            return this;
        }

        /** Poisons about permille/1000 of the records: half with unreadable headers, half undecodable. */
        Builder poison(int permille) {
            this.poisonPermille = permille;
            return this;
        }

        Builder unstamped() {
            this.stamped = false;
            return this;
        }

        Builder observes(String... topics) {
            for (String t : topics) {
                observes.addAll(world.broker().channels(t));
            }
            return this;
        }

        Builder startWhen(Predicate<SimWorld> condition) {
            this.startWhen = condition;
            return this;
        }

        /** Holds every transaction open until the condition holds. */
        Builder commitWhen(Predicate<SimWorld> condition) {
            this.commitWhen = condition;
            return this;
        }

        SimProducer build() {
            SimProducer p = new SimProducer(this);
            world.add(p);
            return p;
        }
    }
}
