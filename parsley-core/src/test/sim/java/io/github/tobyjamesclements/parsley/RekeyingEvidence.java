package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Assumptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a drained re-keying world exercised (style.md rule 14), counted from ground truth after
 * the obligations passed: the oracle's committed records and each node's committed deliveries,
 * never a clock. The counters are those of {@link SimStats} named for the re-keying families:
 * re-keyed sends that crossed partitions, a sender's order across partitions delivered at one
 * node, causal pairs across hops delivered at one node, and the claims a topic-wide sequence claim
 * could only resolve by a probe (the sender never sends to the consumed partition again).
 *
 * <p>It also keeps, per P, the largest stamp the seeds of this JVM wrote (claims and header bytes),
 * so a run shows how stamps grow with P (issue 44), before and after a change of the protocol.
 */
final class RekeyingEvidence {

    /** Largest stamps per scenario and P, over the worlds run in this JVM. */
    private static final Map<String, Map<Integer, long[]>> STAMPS = new TreeMap<>();

    private static final int MAX_SEQ_CLAIMS = 0;
    private static final int MAX_OFFSET_CLAIMS = 1;
    private static final int MAX_BYTES = 2;
    private static final int TOTAL_BYTES = 3;
    private static final int STAMPS_COUNTED = 4;
    private static final int WORLDS = 5;

    private static final Logger log = LoggerFactory.getLogger("parsley.sim");

    /** Seeds sampled when a family's evidence is asked for without its seeds having run. */
    private static final int SAMPLE = 25;

    private RekeyingEvidence() {
    }

    /** A scenario that builds its world, runs it to drain and then counts what it exercised. */
    static Scenario scenario(String name, BiFunction<Long, Fault, SimWorld> build) {
        return Scenario.of(name, build, w -> count(w, name));
    }

    /**
     * What a family's scenario exercised over the seeds this JVM ran, or, when none ran (the class
     * was not selected), over its first {@code SAMPLE} seeds; logs the stamp sizes per P. Skipped
     * when one seed is replayed: one world need not exercise everything.
     */
    static SimStats exercised(Class<?> family, Scenario scenario) {
        String replayed = System.getProperty("parsley.sim.seed");
        Assumptions.assumeTrue(replayed == null || replayed.isBlank(), "one seed replayed");
        SimStats recorded = SimSeeds.exercised(scenario.name());
        if (recorded == null) {
            recorded = new SimStats();
            for (long seed = 0; seed < SAMPLE; seed++) {
                recorded.addAll(SimSeeds.run(family, seed, scenario));
            }
        }
        log.info("{}: {}; stamps {}", scenario.name(), recorded, stampSizes(scenario.name()));
        return recorded;
    }

    /** Counts the re-keying evidence of a drained world into its stats. */
    static void count(SimWorld w, String scenario) {
        Oracle oracle = w.oracle();
        // committed records per emitting node and channel, in emission (id) order
        Map<String, Map<Channel, List<Oracle.Fact>>> sent = new TreeMap<>();
        Map<String, Map<UUID, Channel>> lastPartition = new TreeMap<>();
        for (int id = 0; id < oracle.size(); id++) {
            Oracle.Fact f = oracle.fact(id);
            if (f.status != Oracle.Status.COMMITTED || !oracle.actor(f.emitter).node) {
                continue;
            }
            sent.computeIfAbsent(f.emitter, x -> new TreeMap<>()).computeIfAbsent(f.channel, x -> new ArrayList<>())
                    .add(f);
            Channel before = lastPartition.computeIfAbsent(f.emitter, x -> new TreeMap<>()).put(f.channel.topicId(),
                    f.channel);
            if (before != null && !before.equals(f.channel)) {
                w.stats().add(SimStats.Counter.REKEYED_SENDS_CROSSING_PARTITIONS);
            }
        }
        for (SimNode n : w.nodes()) {
            if (n.up() && n.declaration().consumed().size() >= 2) {
                w.stats().add(SimStats.Counter.HOLDS_AT_CROSS_PARTITION_READERS, n.holds());
                countPairs(w, n, sent);
            }
        }
        recordStamps(w, scenario);
    }

    /** The pairs and idle-partition claims of the records one node delivered (committed). */
    private static void countPairs(SimWorld w, SimNode n, Map<String, Map<Channel, List<Oracle.Fact>>> sent) {
        Oracle oracle = w.oracle();
        Oracle.Knowledge k = oracle.actor(n.name).committed;
        SortedSet<Channel> consumed = n.declaration().consumed();
        BitSet delivered = (BitSet) k.delivered.clone();
        delivered.andNot(k.deadLettered);
        for (int r = delivered.nextSetBit(0); r >= 0; r = delivered.nextSetBit(r + 1)) {
            Oracle.Fact fr = oracle.fact(r);
            // the last send of each node on each topic in r's past: the sequence claim r's stamp names
            Map<String, Map<UUID, Oracle.Fact>> last = new TreeMap<>();
            for (int i = fr.ancestors.nextSetBit(0); i >= 0; i = fr.ancestors.nextSetBit(i + 1)) {
                Oracle.Fact a = oracle.fact(i);
                if (a.status != Oracle.Status.COMMITTED) {
                    continue;
                }
                if (oracle.actor(a.emitter).node) {
                    last.computeIfAbsent(a.emitter, x -> new TreeMap<>()).put(a.channel.topicId(), a);
                }
                Long base = k.baselines.get(a.channel);
                if (a.channel.equals(fr.channel) || !consumed.contains(a.channel) || base == null
                        || a.offset < base) {
                    continue;
                }
                if (a.emitter.equals(fr.emitter) && a.channel.topicId().equals(fr.channel.topicId())) {
                    w.stats().add(SimStats.Counter.SENDER_ORDER_PAIRS_ACROSS_PARTITIONS);
                } else if (!a.emitter.equals(fr.emitter) && !a.channel.topicId().equals(fr.channel.topicId())) {
                    w.stats().add(SimStats.Counter.CAUSAL_PAIRS_ACROSS_HOPS);
                }
            }
            last.forEach((sender, byTopic) -> byTopic.values()
                    .forEach(x -> countIdleClaim(w, n, k, fr, x, sent.get(sender))));
        }
    }

    /**
     * Counts, for each partition of x's topic the node consumes (other than r's and x's own), a claim
     * on x's sender that a topic-wide claim would resolve only by a probe: that sender spread its sends
     * over the topic and never sent to the partition after x.
     */
    private static void countIdleClaim(SimWorld w, SimNode n, Oracle.Knowledge k, Oracle.Fact r, Oracle.Fact x,
            Map<Channel, List<Oracle.Fact>> bySender) {
        long partitionsSentTo = bySender.keySet().stream().filter(c -> c.topicId().equals(x.channel.topicId()))
                .count();
        if (partitionsSentTo < 2) {
            return;
        }
        for (Channel q : n.declaration().consumed()) {
            Long base = k.baselines.get(q);
            if (!q.topicId().equals(x.channel.topicId()) || q.equals(r.channel) || q.equals(x.channel)
                    || base == null) {
                continue;
            }
            List<Oracle.Fact> there = bySender.getOrDefault(q, List.of());
            if (there.stream().anyMatch(f -> f.id > x.id)) {
                continue;
            }
            w.stats().add(SimStats.Counter.CLAIMS_ON_IDLE_PARTITIONS);
            if (there.stream().anyMatch(f -> f.id < x.id && f.offset >= base)) {
                w.stats().add(SimStats.Counter.CLAIMS_ABOVE_A_LOWER_MARK);
            }
        }
    }

    /** Notes the world's largest stamp under its P. */
    private static void recordStamps(SimWorld w, String scenario) {
        SimBroker b = w.broker();
        int p = b.partitionCount(b.id(RekeyingChain.TOPICS.get(1)));
        long[] world = new long[WORLDS + 1];
        for (Channel c : b.allChannels()) {
            for (long o = b.logStart(c); o < b.highWatermark(c); o++) {
                SimBroker.Entry e = b.entry(c, o);
                if (e.kind() != SimBroker.Kind.RECORD || e.clock() == null) {
                    continue;
                }
                int bytes = e.sender() == null ? ClockCodec.encode(e.clock()).length
                        : ClockCodec.encode(new SendStamp(e.clock(), e.sender(), e.seq())).length;
                world[MAX_SEQ_CLAIMS] = Math.max(world[MAX_SEQ_CLAIMS], e.clock().seqs().size());
                world[MAX_OFFSET_CLAIMS] = Math.max(world[MAX_OFFSET_CLAIMS], e.clock().offsets().size());
                world[MAX_BYTES] = Math.max(world[MAX_BYTES], bytes);
                world[TOTAL_BYTES] += bytes;
                world[STAMPS_COUNTED]++;
            }
        }
        synchronized (STAMPS) {
            long[] all = STAMPS.computeIfAbsent(scenario, x -> new TreeMap<>()).computeIfAbsent(p,
                    x -> new long[WORLDS + 1]);
            for (int i : new int[] {MAX_SEQ_CLAIMS, MAX_OFFSET_CLAIMS, MAX_BYTES}) {
                all[i] = Math.max(all[i], world[i]);
            }
            all[TOTAL_BYTES] += world[TOTAL_BYTES];
            all[STAMPS_COUNTED] += world[STAMPS_COUNTED];
            all[WORLDS]++;
        }
    }

    /** The stamps per P of a scenario's worlds in this JVM, one line. */
    static String stampSizes(String scenario) {
        StringJoiner j = new StringJoiner("; ");
        synchronized (STAMPS) {
            STAMPS.getOrDefault(scenario, Map.of()).forEach((p, s) -> j.add("P=" + p + ": " + s[WORLDS] + " worlds, max " + s[MAX_SEQ_CLAIMS]
                    + " sequence claims and " + s[MAX_OFFSET_CLAIMS] + " offset claims, max " + s[MAX_BYTES]
                    + " B, mean " + (s[STAMPS_COUNTED] == 0 ? 0 : s[TOTAL_BYTES] / s[STAMPS_COUNTED]) + " B"));
        }
        return j.toString();
    }
}
