package io.github.tobyjamesclements.parsley;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The single factory of the simulator's obligations (protocol.md §14.1, §14.3 V1-V7), so no world
 * forgets one. Each obligation is one small class below.
 */
final class Obligations {

    private Obligations() {
    }

    static List<Invariant> invariants() {
        return List.of(new KnownRecord(), new NoDuplicate(), new ChannelFifo(), new CausalDelivery(),
                new StampNamesAppendedOffsets(), new ContiguousFrontier(), new PoisonOnly(), new AtOrAboveBaseline(),
                new ReadCoversTokenPast(), new MonotonicReads(), new ReadsNeverRolledBack());
    }

    static List<Validation> validations() {
        return List.of(new TransactionsResolved(), new NothingHeld(), new Completeness(),
                new DeadLettersExactlyOnce(), new ReadsAnswered());
    }

    /** A delivered record must be a committed business record, delivered at its own coordinate. */
    static final class KnownRecord implements Invariant {
        @Override
        public void onDelivery(Oracle oracle, Oracle.Judged d) {
            Oracle.Fact f = d.fact();
            if (f == null || f.status != Oracle.Status.COMMITTED || !f.channel.equals(d.channel())
                    || f.offset != d.offset()) {
                throw new SimViolation("UNKNOWN RECORD", "node=" + d.actor().name + " delivered " + d.channel() + "/"
                        + d.offset() + " which is not a committed record there; fact=" + f);
            }
        }

        @Override
        public void onDeadLetter(Oracle oracle, Oracle.Judged d, boolean gated) {
            onDelivery(oracle, d);
        }
    }

    /**
     * S8: a node never delivers below its baseline of the channel (its first position there, or a
     * grown input's resume position): that history was skipped, and re-entering it delivers past
     * the node already has, as its own or carried.
     */
    static final class AtOrAboveBaseline implements Invariant {
        @Override
        public void onDelivery(Oracle oracle, Oracle.Judged d) {
            Long base = d.actor().working.baselines.get(d.channel());
            if (base != null && d.offset() < base) {
                throw new SimViolation("BELOW BASELINE", "node=" + d.actor().name + " delivered " + d.channel() + "/"
                        + d.offset() + " below its baseline " + base);
            }
        }
    }

    /** S3: no record is delivered twice at a node (committed or within the open transaction). */
    static final class NoDuplicate implements Invariant {
        @Override
        public void onDelivery(Oracle oracle, Oracle.Judged d) {
            if (d.actor().working.delivered.get((int) d.fact().id)) {
                throw new SimViolation("DUPLICATE", "node=" + d.actor().name + " delivered " + d.fact() + " again");
            }
        }

        @Override
        public void onDeadLetter(Oracle oracle, Oracle.Judged d, boolean gated) {
            onDelivery(oracle, d);
        }
    }

    /** A poison record reaches a node's dead letters and never its logic; a healthy one never its dead letters. */
    static final class PoisonOnly implements Invariant {
        @Override
        public void onDelivery(Oracle oracle, Oracle.Judged d) {
            if (oracle.poison(d.actor().name, d.fact().id)) {
                throw new SimViolation("POISON DELIVERED", "node=" + d.actor().name + " ran its logic on the poison "
                        + d.fact());
            }
        }

        @Override
        public void onDeadLetter(Oracle oracle, Oracle.Judged d, boolean gated) {
            if (!oracle.poison(d.actor().name, d.fact().id)) {
                throw new SimViolation("HEALTHY DEAD-LETTERED", "node=" + d.actor().name + " dead-lettered the healthy "
                        + d.fact());
            }
        }
    }

    /** S2: delivered offsets strictly increase per node and channel. */
    static final class ChannelFifo implements Invariant {
        @Override
        public void onDelivery(Oracle oracle, Oracle.Judged d) {
            Long last = d.actor().working.lastDelivered.get(d.channel());
            if (last != null && d.offset() <= last) {
                throw new SimViolation("FIFO", "node=" + d.actor().name + " delivered " + d.channel() + "/"
                        + d.offset() + " after offset " + last);
            }
        }
    }

    /**
     * S1: every real ancestor on a channel the node consumes, at or above the node's baseline there,
     * was delivered before.
     */
    static final class CausalDelivery implements Invariant {
        @Override
        public void onDelivery(Oracle oracle, Oracle.Judged d) {
            Oracle.Actor a = d.actor();
            Oracle.Knowledge k = a.working;
            var ancestors = d.fact().ancestors;
            for (int i = ancestors.nextSetBit(0); i >= 0; i = ancestors.nextSetBit(i + 1)) {
                Oracle.Fact anc = oracle.fact(i);
                if (anc.status != Oracle.Status.COMMITTED || !a.consumed.contains(anc.channel)) {
                    continue;
                }
                Long base = k.baselines.get(anc.channel);
                if (base != null && anc.offset >= base && !k.delivered.get(i)) {
                    throw new SimViolation("CAUSAL VIOLATION", "node=" + a.name + " delivered " + d.fact()
                            + " before its ancestor " + anc + " (baseline " + base + ")");
                }
            }
        }
    }

    /** S7: every offset claim of a stamp names an appended offset. */
    static final class StampNamesAppendedOffsets implements Invariant {
        @Override
        public void onSend(SimWorld world, SimNode node, Channel destination, SendStamp stamp) {
            for (Map.Entry<Channel, Long> e : stamp.clock().offsets().entrySet()) {
                if (e.getValue() >= world.broker().highWatermark(e.getKey())) {
                    throw new SimViolation("OVER-CLAIM", "node=" + node.name + " stamped " + e.getKey() + "->"
                            + e.getValue() + " but the log ends at " + world.broker().highWatermark(e.getKey()));
                }
            }
        }
    }

    /**
     * S4: a frontier never passes a committed record at or above the baseline that was not
     * delivered (it moves only by delivery, seed/bridge, the skip run below a head and positions).
     */
    static final class ContiguousFrontier implements Invariant {
        @Override
        public void afterStep(SimWorld world, SimNode actor) {
            if (actor == null || !actor.up()) {
                return;
            }
            Oracle.Actor a = world.oracle().actor(actor.name);
            for (Channel c : actor.declaration().consumed()) {
                long f = actor.causalNode().frontier(c);
                Long base = a.working.baselines.get(c);
                if (base == null) {
                    continue;
                }
                for (Oracle.Fact fact : world.oracle().facts(c)) {
                    if (fact.offset > f) {
                        break;
                    }
                    if (fact.offset >= base && fact.status == Oracle.Status.COMMITTED
                            && !a.working.delivered.get((int) fact.id)) {
                        throw new SimViolation("FRONTIER GAP", "node=" + actor.name + " frontier " + c + "=" + f
                                + " passes the undelivered " + fact + " (baseline " + base + ")");
                    }
                }
            }
        }
    }

    /**
     * A node's committed dead letters are exactly the poison records it handled, each once, with the
     * key, value and application headers the record arrived with (a held one restored from the
     * store included): nothing dead-lettered is lost, nothing doubled by an aborted step.
     */
    static final class DeadLettersExactlyOnce implements Validation {
        @Override
        public void validate(SimWorld world) {
            for (SimNode n : world.nodes()) {
                Channel dlt = n.deadLetterChannel();
                if (dlt == null) {
                    continue;
                }
                BitSet seen = new BitSet();
                for (SimBroker.Entry e : world.broker().committedDeadLetters(dlt, n.name)) {
                    Oracle.Fact f = world.oracle().fact(e.recordId());
                    if (seen.get((int) e.recordId())) {
                        throw new SimViolation("DEAD LETTER DUPLICATE", "seed=" + world.seed + ": node " + n.name
                                + " committed the dead letter of " + f + " twice");
                    }
                    seen.set((int) e.recordId());
                    SimBroker.Entry source = world.broker().entry(f.channel, f.offset);
                    if (!Arrays.equals(e.key(), source.key()) || !Arrays.equals(e.value(), source.value())
                            || !Arrays.equals(e.headers(), SimWorld.headers(f.id))) {
                        throw new SimViolation("DEAD LETTER DAMAGED", "seed=" + world.seed + ": node " + n.name
                                + " dead-lettered " + f + " without its key, value or headers");
                    }
                }
                BitSet expected = world.oracle().actor(n.name).committed.deadLettered;
                if (!seen.equals(expected)) {
                    BitSet missing = (BitSet) expected.clone();
                    missing.andNot(seen);
                    BitSet unknown = (BitSet) seen.clone();
                    unknown.andNot(expected);
                    throw new SimViolation("DEAD LETTER MISSING", "seed=" + world.seed + ": node " + n.name
                            + " handled as dead letters " + expected + " but committed " + seen + "; missing="
                            + missing + ", not handled=" + unknown);
                }
            }
        }
    }

    /** Every transaction ended: an open one at drain means its owner was stuck. */
    static final class TransactionsResolved implements Validation {
        @Override
        public void validate(SimWorld world) {
            for (SimProducer p : world.producers()) {
                if (p.transactionOpen()) {
                    throw new SimViolation("WEDGE", "seed=" + world.seed + ", steps=" + world.steps()
                            + ": producer " + p.name + " still has an open transaction and nothing is enabled");
                }
            }
        }
    }

    /** L1/L4/V5: a drained world holds nothing; a held record with nothing enabled is a wedge. */
    static final class NothingHeld implements Validation {
        @Override
        public void validate(SimWorld world) {
            for (SimNode n : world.nodes()) {
                if (n.up()) {
                    int[] queued = {0};
                    n.causalNode().state().forEachHeld((c, e) -> queued[0]++);
                    if (n.causalNode().held() != queued[0]) {
                        throw new SimViolation("HELD_COUNT", "seed=" + world.seed + ": node " + n.name + " counts "
                                + n.causalNode().held() + " held records, its queues hold " + queued[0]);
                    }
                }
                if (n.up() && n.causalNode().held() > 0) {
                    throw new SimViolation("WEDGE", "seed=" + world.seed + ", steps=" + world.steps() + ", enabled="
                            + SimWorld.labels(world.enabled()) + ": node " + n.name + " holds "
                            + n.causalNode().held() + " records; heads=" + n.causalNode().explainHeads()
                            + claimedRecords(world, n));
                }
            }
        }
    }

    /** Where each unmet sequence claim's record is, against the node's baseline (the §5.2 window). */
    static String claimedRecords(SimWorld world, SimNode n) {
        StringBuilder out = new StringBuilder();
        for (Gate.HeadExplanation h : n.causalNode().explainHeads()) {
            for (Gate.Unmet u : h.unmet()) {
                if (u.sender() == null) {
                    continue;
                }
                long at = -1;
                long hw = world.broker().highWatermark(u.channel());
                for (long o = 0; o < hw; o++) {
                    SimBroker.Entry e = world.broker().entry(u.channel(), o);
                    if (e.fetchable() && u.sender().equals(e.sender()) && e.seq() >= u.claimed()) {
                        at = o;
                        break;
                    }
                }
                out.append("; claimed ").append(world.broker().name(u.channel())).append(" seq ").append(u.claimed())
                        .append(" is at offset ").append(at).append(" (log start ")
                        .append(world.broker().logStart(u.channel())).append(", baseline ")
                        .append(world.oracle().baselineOf(n.name, u.channel())).append(")");
            }
        }
        return out.toString();
    }

    /** V5/L1: every committed record from the baseline to the end of every consumed channel was delivered. */
    static final class Completeness implements Validation {
        @Override
        public void validate(SimWorld world) {
            for (SimNode n : world.nodes()) {
                if (!n.up()) {
                    continue;
                }
                Oracle.Actor a = world.oracle().actor(n.name);
                for (Channel c : n.declaration().consumed()) {
                    Long base = a.committed.baselines.get(c);
                    for (Oracle.Fact f : world.oracle().facts(c)) {
                        if (base != null && f.offset >= base && f.status == Oracle.Status.COMMITTED
                                && !a.committed.delivered.get((int) f.id)) {
                            throw new SimViolation("LIVENESS", "seed=" + world.seed + ", steps=" + world.steps()
                                    + ": node " + n.name + " never delivered " + f + " (baseline " + base
                                    + ", frontier " + n.causalNode().frontier(c) + ")");
                        }
                    }
                }
            }
        }
    }

    // Reads of committed state (protocol.md §17) -----------------------------------------------------

    /**
     * A read the gate answers reflects the token's true past on the channels the node consumes: every
     * committed record of that past on a consumed channel, at or above the node's baseline there (and
     * not dead-lettered by it), is in the value read. The past is the oracle's, never a clock's.
     */
    static final class ReadCoversTokenPast implements Invariant {
        @Override
        public void onRead(SimWorld world, SimReader.Read r) {
            BitSet required = required(world.oracle(), r.node().name, r.past());
            if (!required.isEmpty()) {
                world.stats().add(SimStats.Counter.READS_COVERING_PAST);
                world.stats().add(SimStats.Counter.READ_RECORDS_CHECKED, required.cardinality());
            }
            required.andNot(r.value());
            if (!required.isEmpty()) {
                throw new SimViolation("STALE READ", "session=" + r.session() + " read node=" + r.node().name
                        + " whose value misses " + world.oracle().fact(required.nextSetBit(0)) + " of the token's"
                        + " true past (" + required.cardinality() + " such records); token=" + r.token());
            }
        }

        /** The records of {@code past} that a state of {@code node} answering a read must reflect. */
        static BitSet required(Oracle oracle, String node, BitSet past) {
            Oracle.Actor a = oracle.actor(node);
            BitSet out = new BitSet();
            for (int i = past.nextSetBit(0); i >= 0; i = past.nextSetBit(i + 1)) {
                Oracle.Fact f = oracle.fact(i);
                if (f.status != Oracle.Status.COMMITTED || !a.consumed.contains(f.channel)
                        || a.working.deadLettered.get(i)) {
                    continue;
                }
                Long base = a.working.baselines.get(f.channel);
                if (base != null && f.offset >= base) {
                    out.set(i);
                }
            }
            return out;
        }
    }

    /**
     * Monotonic reads: in one session, an answered read of a node reflects every record an earlier
     * answered read of it reflected, across crashes and restarts of the node.
     */
    static final class MonotonicReads implements Invariant {
        @Override
        public void onRead(SimWorld world, SimReader.Read r) {
            if (r.previous() == null) {
                return;
            }
            BitSet lost = (BitSet) r.previous().clone();
            lost.andNot(r.value());
            if (!lost.isEmpty()) {
                throw new SimViolation("NON-MONOTONIC READ", "session=" + r.session() + " read node=" + r.node().name
                        + " without " + world.oracle().fact(lost.nextSetBit(0)) + ", which its earlier read there"
                        + " reflected (" + lost.cardinality() + " such records)");
            }
        }
    }

    /**
     * Reads are of committed state: every record a value read reflects was delivered in a committed
     * transaction of the node ({@code UNCOMMITTED READ}), and is still reflected by the node's
     * durable state after every later crash and restart ({@code ROLLED BACK READ}).
     */
    static final class ReadsNeverRolledBack implements Invariant {
        private final Map<String, BitSet> promised = new TreeMap<>();

        @Override
        public void onRead(SimWorld world, SimReader.Read r) {
            BitSet uncommitted = (BitSet) r.value().clone();
            uncommitted.andNot(world.oracle().actor(r.node().name).committed.delivered);
            if (!uncommitted.isEmpty()) {
                throw new SimViolation("UNCOMMITTED READ", "session=" + r.session() + " read node=" + r.node().name
                        + " reflecting " + world.oracle().fact(uncommitted.nextSetBit(0)) + ", not delivered in a"
                        + " committed transaction (" + uncommitted.cardinality() + " such records)");
            }
            promised.computeIfAbsent(r.node().name, n -> new BitSet()).or(r.value());
        }

        @Override
        public void afterStep(SimWorld world, SimNode actor) {
            BitSet kept = actor == null ? null : promised.get(actor.name);
            if (kept == null || !actor.up()) {
                return;
            }
            BitSet lost = (BitSet) kept.clone();
            lost.andNot(actor.readView().committedValue());
            if (!lost.isEmpty()) {
                throw new SimViolation("ROLLED BACK READ", "node=" + actor.name + " restarted without "
                        + world.oracle().fact(lost.nextSetBit(0)) + ", which an answered read reflected ("
                        + lost.cardinality() + " such records)");
            }
        }
    }

    /** Reads are live: once the world drained, every read not answered is answered when retried. */
    static final class ReadsAnswered implements Validation {
        @Override
        public void validate(SimWorld world) {
            for (SimReader r : world.readers()) {
                r.retryAtDrain();
            }
        }
    }
}
