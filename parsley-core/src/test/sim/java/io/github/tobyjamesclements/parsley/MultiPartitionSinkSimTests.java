package io.github.tobyjamesclements.parsley;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Multi-partition sink ordering through sequence claims (protocol.md §3.6 E2, §6.2): a stage
 * spreads its outputs over the partitions of two topics. Nodes have no acknowledgement feed, so
 * their own sends are ordered only by sequence claims; consumers of partition slices and of whole
 * topics must deliver each sender's cross-partition order. The input's producer pipelines and
 * loses acknowledgements.
 */
class MultiPartitionSinkSimTests {

    static final Scenario MULTI_PARTITION = Scenario.of("multi-partition sink ordering",
            MultiPartitionSinkSimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        w.topic("t1", 1).topic("t2", 3).topic("t3", 2);
        w.producer("P").writes("t1").records(10 + shape.nextInt(12)).transactions(1 + shape.nextInt(3), 150)
                .pipelining(400).build();
        w.node("A").consumes("t1").route("t2", 800, true).route("t3", 700, true).crashes(shape.nextInt(3)).build();
        w.node("C0").consumes("t2", 0).consumes("t3", 0).crashes(shape.nextInt(2)).build();
        w.node("C1").consumes("t2", 1).consumes("t3", 1).route("t3", 300, true).crashes(shape.nextInt(2)).build();
        w.node("X").consumes("t2", "t3").crashes(shape.nextInt(2)).build();
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void aSendersOrderAcrossPartitionsIsDeliveredThroughSequenceClaims(long seed) {
        SimSeeds.run(MultiPartitionSinkSimTests.class, seed, MULTI_PARTITION);
    }
}
