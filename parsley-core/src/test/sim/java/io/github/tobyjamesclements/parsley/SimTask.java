package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One Kafka Streams task hosting several stages that share a source topic (fan-out, see
 * docs/protocol-decisions.md): one producer transaction for all of them, so a commit commits every
 * member's step and a crash of any member aborts every member's uncommitted work; the members
 * start, restart and move to another instance (a handover) together. Each member keeps its own
 * node, protocol store, positions and sender identity; which store a member uses is the installed
 * {@link Fault}'s decision (honestly: its own).
 */
final class SimTask {

    final String name;
    private final SimWorld world;
    private final List<SimNode> members = new ArrayList<>();
    private final TreeMap<String, TreeMap<String, byte[]>> stores = new TreeMap<>();
    private final SortedSet<String> writers = new TreeSet<>();
    private SimBroker.Txn txn;
    private int handovers;

    SimTask(SimWorld world, String name) {
        this.world = world;
        this.name = name;
    }

    /** Lets the task move to another instance up to {@code budget} times: a clean close, then a fresh init. */
    SimTask handovers(int budget) {
        this.handovers = budget;
        return this;
    }

    void add(SimNode member) {
        members.add(member);
    }

    List<SimNode> members() {
        return members;
    }

    /** The committed protocol store a member's stage uses, by the name the host gives it. */
    TreeMap<String, byte[]> store(String storeName) {
        return stores.computeIfAbsent(storeName, n -> new TreeMap<>());
    }

    /** The task's open transaction, begun on a member's first write. */
    SimBroker.Txn txn(SimNode writer) {
        if (txn == null) {
            txn = world.broker().begin(name);
        }
        writers.add(writer.name);
        return txn;
    }

    /** Commits the one transaction, then every member's store writes and consumer positions. */
    void commit() {
        if (txn != null) {
            world.broker().commit(txn);
            world.oracle().committed(txn.recordIds);
            txn = null;
        }
        writers.clear();
        for (SimNode m : members) {
            if (m.up()) {
                m.commitState();
            }
        }
    }

    /** A crash of one member is the task's: its transaction aborts and every member goes down. */
    void abort() {
        if (txn != null) {
            world.broker().abort(txn);
            world.oracle().aborted(txn.recordIds);
            world.stats().add(SimStats.Counter.ABORTED_TRANSACTIONS);
            if (writers.size() > 1) {
                world.stats().add(SimStats.Counter.FAN_OUT_SHARED_ABORTS);
            }
            txn = null;
        }
        writers.clear();
        for (SimNode m : members) {
            if (m.up()) {
                m.crashState();
            }
        }
    }

    /** Starts (or restarts) every member not up, through the full init path. */
    void initDown() {
        for (SimNode m : members) {
            if (!m.up()) {
                m.initMember();
            }
        }
    }

    /** Re-initialises the members other than {@code redeployed} after a commit (a rolling redeploy). */
    void reinitOthers(SimNode redeployed) {
        for (SimNode m : members) {
            if (m != redeployed && m.up()) {
                m.initMember();
            }
        }
    }

    void actions(List<SimWorld.Action> out) {
        if (handovers > 0 && members.stream().allMatch(SimNode::up)) {
            out.add(new SimWorld.Action(() -> "task " + name + " handover", 1, this::handover, null));
        }
    }

    /** A rebalance moves the task: the old instance commits and closes, the new one inits from committed state. */
    private void handover() {
        handovers--;
        commit();
        for (SimNode m : members) {
            m.initMember();
        }
        world.stats().add(SimStats.Counter.FAN_OUT_HANDOVERS);
        world.trace("task " + name + " handed over");
    }

    /** Anti-vacuity: a run counts only if every member stage held records at least once. */
    void afterDrain() {
        if (members.size() > 1 && members.stream().allMatch(m -> m.holds() > 0)) {
            world.stats().add(SimStats.Counter.FAN_OUT_HOLDS_IN_EVERY_STAGE);
        }
    }
}
