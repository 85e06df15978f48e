package io.github.tobyjamesclements.parsley;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A seeded, deterministic world (protocol.md §14.3): one broker, hosts, plain producers, the oracle
 * and one scheduler that picks, with seeded weights, one enabled action at a time until nothing is
 * enabled (the world has drained) or the step budget runs out (a livelock).
 *
 * <p>Behaviour is a function of the seed: every component draws from its own stream split from the
 * seed ({@link #split()}), every collection that decides anything is ordered, and no wall clock
 * is read. Each step is appended to a trace, so two runs of one seed can be compared line by line.
 * After every step the registered {@link Invariant}s judge the world; at drain the registered
 * {@link Validation}s do (liveness, completeness, wedges). A failure names the seed, the step
 * count and the actions that were enabled.
 */
final class SimWorld {

    /**
     * One enabled action of one actor ({@code actor} is null for producers and world actions). The
     * label is built only when needed (trace, failure report).
     */
    record Action(Supplier<String> describe, int weight, Runnable run, SimNode actor) {

        String label() {
            return describe.get();
        }
    }

    private record Scripted(String label, Predicate<SimWorld> when, Runnable run) {
    }

    /** Why a record is poison for every stage: its causal headers cannot be read, or its value not decoded. */
    enum Poison { UNREADABLE, UNDECODABLE }

    final long seed;
    private final Fault fault;
    private final SplittableRandom root;
    private final SplittableRandom scheduler;
    private final SplittableRandom worldRandom;
    private final long handlerSalt;
    private final List<String> trace = new ArrayList<>();
    private final SimStats stats = new SimStats();
    private final SimBroker broker;
    private final List<Invariant> invariants;
    private final List<Validation> validations;
    private final Oracle oracle;
    private final List<SimNode> nodes = new ArrayList<>();
    private final List<SimProducer> producers = new ArrayList<>();
    private final List<SimTask> tasks = new ArrayList<>();
    private final List<SimReader> readers = new ArrayList<>();
    private final List<Scripted> scripted = new ArrayList<>();
    private final TreeMap<Long, Poison> poison = new TreeMap<>();
    private int stepBudget = 20_000;
    private int retentionBudget;
    private int maxStampBytes = Integer.MAX_VALUE;
    private boolean retentionPastHolds;
    private int steps;
    private boolean keepTrace = true;

    private SimWorld(long seed, Fault fault) {
        this.seed = seed;
        this.fault = fault;
        this.root = new SplittableRandom(seed);
        this.scheduler = root.split();
        this.worldRandom = root.split();
        this.handlerSalt = root.split().nextLong();
        this.broker = new SimBroker(this::trace);
        this.invariants = Obligations.invariants();
        this.validations = Obligations.validations();
        this.oracle = new Oracle(invariants, this::poisonFor);
    }

    static SimWorld create(long seed, Fault fault) {
        return new SimWorld(seed, fault);
    }

    // Building -----------------------------------------------------------------------------------

    SimWorld topic(String name, int partitions) {
        broker.createTopic(name, partitions);
        return this;
    }

    SimNode.Builder node(String name) {
        return SimNode.builder(this, name);
    }

    /** A task shared by the stages built {@code inTask} it (fan-out). */
    SimTask task(String name) {
        SimTask t = new SimTask(this, name);
        tasks.add(t);
        return t;
    }

    SimProducer.Builder producer(String name) {
        return SimProducer.builder(this, name);
    }

    /** A client session reading readable nodes' committed state (protocol.md §17). */
    SimReader.Builder reader(String name) {
        return SimReader.builder(this, name);
    }

    /** Bounds every stage node's stamps (protocol.md §10.2): stamps above {@code bytes} are coarsened. */
    SimWorld maxStampBytes(int bytes) {
        this.maxStampBytes = bytes;
        return this;
    }

    int maxStampBytes() {
        return maxStampBytes;
    }

    /** Lets retention advance log starts up to {@code budget} times, never past a subscriber. */
    SimWorld retention(int budget) {
        this.retentionBudget = budget;
        return this;
    }

    /**
     * Lets retention follow committed consumer positions only, passing records a subscriber fetched
     * but still holds (what consumer lag shows under Kafka Streams, protocol.md §13.1).
     */
    SimWorld retentionPastHolds() {
        this.retentionPastHolds = true;
        return this;
    }

    boolean retentionPassesHolds() {
        return retentionPastHolds;
    }

    SimWorld stepBudget(int budget) {
        this.stepBudget = budget;
        return this;
    }

    /** A one-shot scripted event, enabled once its condition holds. */
    SimWorld when(String label, Predicate<SimWorld> condition, Runnable run) {
        scripted.add(new Scripted(label, condition, run));
        return this;
    }

    void add(SimNode n) {
        nodes.add(n);
    }

    void add(SimProducer p) {
        producers.add(p);
    }

    void add(SimReader r) {
        readers.add(r);
    }

    /** A fresh random stream for one component, split from the seed. */
    SplittableRandom split() {
        return root.split();
    }

    /** A random stream for scenario shapes (topology sizes, budgets). */
    SplittableRandom shapes() {
        return worldRandom;
    }

    // Running ------------------------------------------------------------------------------------

    /** Runs until nothing is enabled, then judges the drained world. */
    void runToDrain() {
        while (true) {
            List<Action> enabled = enabled();
            if (enabled.isEmpty()) {
                for (Validation v : validations) {
                    v.validate(this);
                }
                tasks.forEach(SimTask::afterDrain);
                trace("drained after " + steps + " steps");
                return;
            }
            if (steps >= stepBudget) {
                throw new SimViolation("STEP BUDGET", "the world did not drain; seed=" + seed + ", steps=" + steps
                        + ", enabled=" + labels(enabled));
            }
            Action a = choose(enabled);
            trace(steps + " " + a.label());
            steps++;
            stats.add(SimStats.Counter.STEPS);
            a.run().run();
            for (Invariant i : invariants) {
                i.afterStep(this, a.actor());
            }
        }
    }

    private Action choose(List<Action> enabled) {
        int total = 0;
        for (Action a : enabled) {
            total += a.weight();
        }
        int pick = scheduler.nextInt(total);
        for (Action a : enabled) {
            pick -= a.weight();
            if (pick < 0) {
                return a;
            }
        }
        throw new IllegalStateException("unreachable");
    }

    List<Action> enabled() {
        List<Action> out = new ArrayList<>();
        for (SimNode n : nodes) {
            n.actions(out);
        }
        for (SimProducer p : producers) {
            p.actions(out);
        }
        for (SimTask t : tasks) {
            t.actions(out);
        }
        for (SimReader r : readers) {
            r.actions(out);
        }
        for (int i = 0; i < scripted.size(); i++) {
            Scripted s = scripted.get(i);
            if (s.when().test(this)) {
                out.add(new Action(() -> "script " + s.label(), 4, () -> {
                    scripted.remove(s);
                    trace("script " + s.label());
                    s.run().run();
                }, null));
            }
        }
        if (retentionBudget > 0) {
            for (var c : broker.allChannels()) {
                long limit = retentionLimit(c);
                if (limit > broker.logStart(c)) {
                    out.add(new Action(() -> "retention " + broker.name(c), 1, () -> retain(c, limit), null));
                }
            }
        }
        return out;
    }

    /** The highest log start retention may set now: below every subscriber and the last stable offset. */
    long retentionLimit(Channel c) {
        long limit = broker.lastStable(c);
        for (SimNode n : nodes) {
            Long floor = n.retentionFloor(c);
            if (floor != null) {
                limit = Math.min(limit, floor);
            }
        }
        for (SimProducer p : producers) {
            Long floor = p.retentionFloor(c);
            if (floor != null) {
                limit = Math.min(limit, floor);
            }
        }
        return limit;
    }

    private void retain(Channel c, long limit) {
        long start = broker.logStart(c);
        broker.advanceLogStart(c, start + 1 + worldRandom.nextInt((int) (limit - start)));
        retentionBudget--;
        stats.add(SimStats.Counter.RETENTION_ADVANCES);
    }

    /** Full retention: every log starts at its last stable offset (subscribers permitting). */
    void retainEverything() {
        for (Channel c : broker.allChannels()) {
            broker.advanceLogStart(c, retentionLimit(c));
        }
        stats.add(SimStats.Counter.RETENTION_ADVANCES);
    }

    static String labels(List<Action> actions) {
        return actions.stream().map(Action::label).collect(Collectors.joining(", ", "[", "]"));
    }

    void onSend(SimNode node, Channel destination, SendStamp stamp) {
        for (Invariant i : invariants) {
            i.onSend(this, node, destination, stamp);
        }
    }

    /** Judges an answered read by every invariant. */
    void onRead(SimReader.Read read) {
        for (Invariant i : invariants) {
            i.onRead(this, read);
        }
    }

    void trace(String line) {
        if (keepTrace) {
            trace.add(line);
        }
    }

    // Views --------------------------------------------------------------------------------------

    Fault fault() {
        return fault;
    }

    SimBroker broker() {
        return broker;
    }

    Oracle oracle() {
        return oracle;
    }

    SimStats stats() {
        return stats;
    }

    List<SimNode> nodes() {
        return nodes;
    }

    List<SimProducer> producers() {
        return producers;
    }

    List<SimReader> readers() {
        return readers;
    }

    List<String> trace() {
        return trace;
    }

    int steps() {
        return steps;
    }

    /** A deterministic mix of the seed's handler salt with the parts (handler decisions). */
    long mix(long... parts) {
        long h = handlerSalt;
        for (long p : parts) {
            h = new SplittableRandom(h ^ (p * 0x9E3779B97F4A7C15L)).nextLong();
        }
        return h;
    }

    // Poison records ------------------------------------------------------------------------------

    /** Marks a record poison for every stage (a producer wrote it so). */
    void poison(long id, Poison kind) {
        poison.put(id, kind);
    }

    /** Why a record is poison for every stage, or null. */
    Poison poisonOf(long id) {
        return poison.get(id);
    }

    /**
     * Whether the logic of {@code node} fails on a delivered record (a handler that throws on it): a
     * deterministic function of the seed, the node and the record, so a retry fails again.
     */
    boolean logicFails(String node, int failPermille, long id) {
        return failPermille > 0 && Math.floorMod(mix(node.hashCode(), id, 0xDEADL), 1000) < failPermille;
    }

    /** Ground truth for the oracle: whether a record must reach {@code node}'s dead letters, never its logic. */
    private boolean poisonFor(String node, long id) {
        if (poison.containsKey(id)) {
            return true;
        }
        for (SimNode n : nodes) {
            if (n.name.equals(node)) {
                return logicFails(node, n.failPermille(), id);
            }
        }
        return false;
    }

    // Record payloads ----------------------------------------------------------------------------

    /** The application headers every record carries in the simulation: a function of its id. */
    static byte[] headers(long id) {
        return ByteBuffer.allocate(10).put((byte) 'h').putLong(id).put((byte) 'h').array();
    }

    static byte[] value(long id, int hop) {
        return ByteBuffer.allocate(12).putLong(id).putInt(hop).array();
    }

    static long idOf(byte[] value) {
        return ByteBuffer.wrap(value).getLong();
    }

    static int hopOf(byte[] value) {
        return ByteBuffer.wrap(value).getInt(8);
    }

    static byte[] key(int key) {
        return ByteBuffer.allocate(4).putInt(key).array();
    }

    static int keyOf(byte[] key) {
        return ByteBuffer.wrap(key).getInt();
    }
}
