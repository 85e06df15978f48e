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
 * The wide re-keying chain (issue 44, protocol.md §3.7, §6.1-6.3): t0 to t1 to t2 to t3, each of
 * P partitions, through stages A, B and C of P tasks each, every task re-keying its outputs over
 * all P partitions of its sink ({@link RekeyingChain}). Every single-partition consumer downstream
 * receives claims on its upstream senders' sends to the partitions it does not read, carried in
 * custody; a topic-wide claim would instead cover the partition it does read, where that sender may
 * never have sent (a probe). Readers of whole topics check each sender's order across partitions:
 * X reads all of t3, and on some seeds R reads all of t1 (with the second producer's open
 * transactions there). P is 2-8 on most seeds and 16, 32 or 64 on a few.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WideRekeyingChainSimTests {

    static final Scenario WIDE_CHAIN = RekeyingEvidence.scenario("wide re-keying chain",
            WideRekeyingChainSimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        RekeyingChain chain = RekeyingChain.build(w, true);
        SplittableRandom shape = w.shapes();
        SimNode.Builder x = w.node("X").consumes("t3").crashes(shape.nextInt(3));
        if (shape.nextBoolean()) {
            x.slow("t3");
        }
        x.build();
        if (shape.nextBoolean()) {
            w.node("R").consumes("t1").crashes(shape.nextInt(2)).build();
        }
        if (shape.nextInt(3) == 0) {
            w.retention(3 + shape.nextInt(5));
        }
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @Order(1)
    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void reKeyedOutputsAreDeliveredInOrderAndDrainAtEveryWidth(long seed) {
        SimSeeds.run(WideRekeyingChainSimTests.class, seed, WIDE_CHAIN);
    }

    @Order(2)
    @Test
    void theChainReKeysAcrossPartitionsAndItsReadersHold() {
        SimStats s = RekeyingEvidence.exercised(WideRekeyingChainSimTests.class, WIDE_CHAIN);
        assertThat(s.get(SimStats.Counter.REKEYED_SENDS_CROSSING_PARTITIONS)).isPositive();
        assertThat(s.get(SimStats.Counter.SENDER_ORDER_PAIRS_ACROSS_PARTITIONS)).isPositive();
        assertThat(s.get(SimStats.Counter.HOLDS_AT_CROSS_PARTITION_READERS)).isPositive();
        assertThat(s.get(SimStats.Counter.CASCADES_LONGER_THAN_ONE)).isPositive();
        assertThat(s.get(SimStats.Counter.CRASHES_MID_STEP)).isPositive();
        assertThat(s.get(SimStats.Counter.ABORTED_TRANSACTIONS)).isPositive();
        assertThat(s.get(SimStats.Counter.RETENTION_ADVANCES)).isPositive();
    }
}
