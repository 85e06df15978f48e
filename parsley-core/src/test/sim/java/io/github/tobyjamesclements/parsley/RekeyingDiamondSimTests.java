package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Re-keying diamonds (issue 44, protocol.md §3.6 E1-E2, §3.7, §6.3): the wide re-keying chain
 * ({@link RekeyingChain}, t0 to t3 through stages A, B and C of P tasks each), read again further
 * down by consumers of two hops at once. D_i consumes t1:i and t3:i, E_i consumes t2:i and t3:i,
 * W consumes all of t1 and all of t3, and on half the seeds V all of t2 and t3. A record on t3:i descends from A's and B's sends to other
 * partitions and, through each sender's own order, from their earlier sends to partition i: D_i and
 * E_i must deliver those first, though the path between them crossed partitions at every hop.
 *
 * <p>The seed also puts in the situations a topic-wide sequence claim could get wrong:
 * <ul>
 *   <li>idle partitions: few records per task, skewed input and nodes redeployed mid-run to keep
 *       their input key, so a claim names a sender that never sends to the consumer's partition
 *       again (resolvable only by reading that partition's high watermark) or that sent there only
 *       below the claim (a mark exists, below the claimed sequence);</li>
 *   <li>a second producer holding transactions open on t1 or t2 until the first is done (the high
 *       watermark above the last stable offset);</li>
 *   <li>diamond consumers lagging on one input or starting late (from the earliest offset), and
 *       some crashing only while they hold records, so restarts restore held records whose claims
 *       are still open;</li>
 *   <li>on a third of the seeds, stage F: F_i consumes t3:i and re-keys into t3 itself (damped
 *       after one hop), so its stamps to t3 carry claims on other senders' sends to other
 *       partitions of the destination's own topic, of which only the destination partition's may
 *       be dropped; on another third F re-keys t3 back into t1 (a cycle damped by the hop limit),
 *       so B's and C's own claims come back to them in custody (echoes, §6.3 rule 1) and D_i must
 *       deliver t3 records before the t1 records that follow from them;</li>
 *   <li>crashes idle and mid-step everywhere, and aborted producer transactions.</li>
 * </ul>
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RekeyingDiamondSimTests {

    static final Scenario DIAMOND = RekeyingEvidence.scenario("re-keying diamonds", RekeyingDiamondSimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        RekeyingChain chain = RekeyingChain.build(w, true);
        SplittableRandom shape = w.shapes();
        int p = chain.partitions;
        SimProducer input = chain.producer;
        // stage F on two seeds in three: re-keys t3 into t3 itself, or back into t1 (a damped cycle)
        String feedback = switch (shape.nextInt(3)) {
            case 0 -> "t3";
            case 1 -> "t1";
            default -> null;
        };
        for (int i = 0; i < p; i++) {
            reader(w.node("D" + i).consumes("t1", i).consumes("t3", i), shape, input, chain.records, "t1", p);
            reader(w.node("E" + i).consumes("t2", i).consumes("t3", i), shape, input, chain.records, "t2", p);
            if (feedback != null) {
                w.node("F" + i).consumes("t3", i).route(feedback, 500 + shape.nextInt(501), true).maxHops(4)
                        .crashes(shape.nextInt(p <= 8 ? 3 : p) == 0 ? 1 : 0).build();
            }
        }
        reader(w.node("W").consumes("t1", "t3"), shape, input, chain.records, "t1", 1);
        if (shape.nextBoolean()) {
            reader(w.node("V").consumes("t2", "t3"), shape, input, chain.records, "t2", 1);
        }
        return w;
    }

    /**
     * A diamond consumer: lags on one input or the other, may start late, crashes now and then (on
     * half of them only while holding records).
     */
    private static void reader(SimNode.Builder n, SplittableRandom shape, SimProducer input, int records,
            String upstream, int peers) {
        switch (shape.nextInt(3)) {
            case 0 -> n.slow(upstream);
            case 1 -> n.slow("t3");
            default -> {
                // keeps up with both inputs
            }
        }
        if (shape.nextInt(4) == 0) {
            int after = shape.nextInt(records + 1);
            n.startWhen(x -> input.sent() >= after);
        }
        int crashes = shape.nextInt(peers <= 8 ? 2 : peers / 4) == 0 ? 1 + shape.nextInt(2) : 0;
        if (shape.nextBoolean()) {
            // only while holding: the restart restores held records whose claims are still open
            n.crashesHolding(crashes, 1 + shape.nextInt(2));
        } else {
            n.crashes(crashes);
        }
        n.build();
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @Order(1)
    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void causesOnOtherPartitionsAreDeliveredBeforeWhatFollowsThemThroughLaterHops(long seed) {
        SimSeeds.run(RekeyingDiamondSimTests.class, seed, DIAMOND);
    }

    @Order(2)
    @Test
    void theDiamondsSeeCrossPartitionCausesAndClaimsOnIdlePartitions() {
        SimStats s = RekeyingEvidence.exercised(RekeyingDiamondSimTests.class, DIAMOND);
        assertThat(s.get(SimStats.Counter.REKEYED_SENDS_CROSSING_PARTITIONS)).isPositive();
        assertThat(s.get(SimStats.Counter.CAUSAL_PAIRS_ACROSS_HOPS)).isPositive();
        assertThat(s.get(SimStats.Counter.SENDER_ORDER_PAIRS_ACROSS_PARTITIONS)).isPositive();
        assertThat(s.get(SimStats.Counter.CLAIMS_ON_IDLE_PARTITIONS)).isPositive();
        assertThat(s.get(SimStats.Counter.CLAIMS_ABOVE_A_LOWER_MARK)).isPositive();
        assertThat(s.get(SimStats.Counter.HOLDS_AT_CROSS_PARTITION_READERS)).isPositive();
        assertThat(s.get(SimStats.Counter.SEQ_NORMALISATIONS)).isPositive();
        assertThat(s.get(SimStats.Counter.RESTORED_SENDER_SWITCHES)).isPositive();
        assertThat(s.get(SimStats.Counter.CRASHES_MID_STEP)).isPositive();
        assertThat(s.get(SimStats.Counter.ABORTED_TRANSACTIONS)).isPositive();
    }

    @Order(3)
    @Test
    void oneSeedRunTwiceGivesIdenticalTracesAtEveryWidth() {
        // P=3 or so, P=16, P=32 and P=64, each family twice
        for (long seed : new long[] {5, 17, 41, 113}) {
            for (SimWorld[] twice : new SimWorld[][] {
                {world(seed, Fault.NONE), world(seed, Fault.NONE)},
                {WideRekeyingChainSimTests.world(seed, Fault.NONE), WideRekeyingChainSimTests.world(seed, Fault.NONE)}}) {
                twice[0].runToDrain();
                twice[1].runToDrain();
                assertThat(twice[0].trace()).as("seed=%d", seed).hasSizeGreaterThan(50);
                assertThat(twice[1].trace()).as("seed=%d", seed).containsExactlyElementsOf(twice[0].trace());
                assertThat(twice[1].stats().asMap()).as("seed=%d", seed).isEqualTo(twice[0].stats().asMap());
            }
        }
    }
}
