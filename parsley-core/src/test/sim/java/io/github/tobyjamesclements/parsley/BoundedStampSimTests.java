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
 * The wide re-keying chain under a stamp bound (protocol.md §6.7, §10.2): every stage node's
 * stamps above the world's bound are coarsened, each sender's sequence claims on a topic's
 * partitions becoming one whole-topic claim at the highest of them. On half the seeds the bound is
 * one byte, so every stamp with a sequence claim is coarsened; on the others it lies between 40 and
 * 200 bytes, so stamps are coarsened or not as they grow. The reference host sends a coarsened
 * stamp whatever its size (refusing one still over the bound is the Kafka host's duty, H8), so
 * the oracle judges coarsening alone: an over-claim may only delay.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BoundedStampSimTests {

    static final Scenario BOUNDED_CHAIN = RekeyingEvidence.scenario("bounded re-keying chain",
            BoundedStampSimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = WideRekeyingChainSimTests.world(seed, fault);
        SplittableRandom bound = new SplittableRandom(seed ^ 0x5EA1_B0DEL);
        return w.maxStampBytes(bound.nextBoolean() ? 1 : 40 + bound.nextInt(161));
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @Order(1)
    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void coarsenedStampsKeepEveryOrderTheyClaimed(long seed) {
        SimSeeds.run(BoundedStampSimTests.class, seed, BOUNDED_CHAIN);
    }

    @Order(2)
    @Test
    void stampsAreCoarsenedAndTheirWholeTopicClaimsHoldReaders() {
        SimStats s = RekeyingEvidence.exercised(BoundedStampSimTests.class, BOUNDED_CHAIN);
        assertThat(s.get(SimStats.Counter.STAMPS_COARSENED)).isPositive();
        assertThat(s.get(SimStats.Counter.PROBE_RELEASES)).isPositive();
        assertThat(s.get(SimStats.Counter.HOLDS_AT_CROSS_PARTITION_READERS)).isPositive();
        assertThat(s.get(SimStats.Counter.CRASHES_MID_STEP)).isPositive();
    }
}
