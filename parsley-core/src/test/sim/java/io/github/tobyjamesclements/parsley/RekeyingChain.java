package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The wide re-keying chain the re-keying families share (issue 44): topics t0 to t3 of P
 * partitions each; an edge producer writes t0; three stages, A (t0 to t1), B (t1 to t2) and C (t2
 * to t3), each modelled as P nodes, node i consuming partition i of its input (one Kafka Streams
 * task) and routing every delivery to a random partition of its output (a new key, {@code
 * spreadKeys}). So each task's outputs spread over all P partitions of its sink, and every stamp
 * downstream carries one sender's claims on the partitions the consumer does not read: the claims
 * that grow as P squared at two hops.
 *
 * <p>The seed draws P: 2-8 mostly (with 8-32 input records, 40-80 on one seed in eight), and 16,
 * 32 and 64 on a few fixed seeds ({@link #partitions}) with few records. Some seeds skew the input
 * (the producer uses fewer keys than partitions, so some tasks of A never send), some stage nodes
 * forward only part of their input or send twice per delivery, and with {@code idleSenders} some
 * are redeployed mid-run to keep their input key: from then on they send to one partition only,
 * and the claims already carried downstream name a sender that never sends to the other
 * partitions again. Stage nodes crash, idle and mid-step; the
 * producer aborts transactions; a second producer holds transactions open on one topic until the
 * first is done, so a partition's high watermark stays above its last stable offset for a while.
 */
final class RekeyingChain {

    /** The chain's topics, in order: the input, then one output per stage. */
    static final List<String> TOPICS = List.of("t0", "t1", "t2", "t3");

    /** The stages: name prefix, input topic, output topic. */
    private static final String[][] STAGES = {{"A", "t0", "t1"}, {"B", "t1", "t2"}, {"C", "t2", "t3"}};

    final SimWorld world;
    final SplittableRandom shape;
    final int partitions;
    final SimProducer producer;
    final int records;
    /** Every stage node's name (A0..A(P-1), B.., C..). */
    final List<String> stageNodes = new ArrayList<>();

    private RekeyingChain(SimWorld world, int partitions, SimProducer producer, int records) {
        this.world = world;
        this.shape = world.shapes();
        this.partitions = partitions;
        this.producer = producer;
        this.records = records;
    }

    /**
     * P for a seed: 64 on seeds 113 mod 200, 32 on 41 and 141 mod 200, 16 on 17 mod 50, otherwise
     * 2-8 from the seed. The default 200 seeds run P=64 once, P=32 twice and P=16 four times.
     */
    static int partitions(long seed) {
        int r = (int) Math.floorMod(seed, 200L);
        if (r == 113) {
            return 64;
        }
        if (r == 41 || r == 141) {
            return 32;
        }
        if (r % 50 == 17) {
            return 16;
        }
        return 2 + new SplittableRandom(seed ^ 0x7E4E7L).nextInt(7);
    }

    /** Builds the topics, the producers and stages A, B and C for the seed's P. */
    static RekeyingChain build(SimWorld w, boolean idleSenders) {
        int p = partitions(w.seed);
        SplittableRandom shape = w.shapes();
        for (String t : TOPICS) {
            w.topic(t, p);
        }
        w.stepBudget(20_000 + 1_500 * p);
        int records = p <= 8 ? 8 + shape.nextInt(25) : p <= 16 ? 16 + shape.nextInt(13) : 10 + shape.nextInt(9);
        if (p <= 8 && shape.nextInt(8) == 0) {
            // a busy world: every task sends to most partitions, many times (stamps near their width)
            records = 40 + shape.nextInt(41);
        }
        // a skewed input: fewer keys than partitions leaves some of A's tasks without input
        int keys = shape.nextInt(4) == 0 ? 1 + shape.nextInt(Math.max(1, p / 2)) : 4 * p;
        SimProducer.Builder pb = w.producer("P").writes("t0").records(records).keys(keys);
        if (shape.nextInt(4) == 0) {
            pb.plain().pipelining(300);
        } else {
            pb.transactions(1 + shape.nextInt(3), 150);
        }
        RekeyingChain chain = new RekeyingChain(w, p, pb.build(), records);
        if (shape.nextBoolean()) {
            // holds transactions open on t1 or t2 until P is done: the high watermark above the LSO
            String target = shape.nextBoolean() ? "t1" : "t2";
            SimProducer main = chain.producer;
            SimProducer.Builder q = w.producer("Q").writes(target).records(2 + shape.nextInt(5)).keys(4 * p)
                    .transactions(1 + shape.nextInt(3), 150).commitWhen(x -> main.done());
            if (shape.nextInt(3) == 0) {
                q.unstamped();
            }
            q.build();
        }
        for (String[] stage : STAGES) {
            chain.stage(stage[0], stage[1], stage[2], idleSenders);
        }
        return chain;
    }

    /** One stage: P nodes, node i consuming partition i of {@code in} and re-keying into {@code out}. */
    private void stage(String prefix, String in, String out, boolean idleSenders) {
        int crashers = Math.min(partitions, 2 + shape.nextInt(3));
        for (int i = 0; i < partitions; i++) {
            String name = prefix + i;
            int permille = shape.nextInt(5) == 0 ? 400 + shape.nextInt(500) : 1000;
            SimNode.Builder n = world.node(name).consumes(in, i).route(out, permille, true);
            if (shape.nextInt(4) == 0) {
                n.route(out, 300 + shape.nextInt(500), true);
            }
            if (idleSenders && shape.nextInt(4) == 0) {
                // from the redeploy on, the node keeps its input's key: one partition of out only
                int after = shape.nextInt(records + 1);
                SimProducer main = producer;
                n.thenRedeploy().consumes(in, i).route(out, permille, false).redeployWhen(x -> main.sent() >= after);
            }
            if (shape.nextInt(5) == 0) {
                n.slow(in);
            }
            boolean crashes = partitions <= 8 ? shape.nextInt(3) == 0 : shape.nextInt(partitions) < crashers;
            n.crashes(crashes ? 1 + shape.nextInt(2) : 0).truncations(shape.nextInt(5) == 0 ? 1 : 0);
            n.build();
            stageNodes.add(name);
        }
    }
}
