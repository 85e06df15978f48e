package io.github.tobyjamesclements.parsley;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Edge-producer cross-topic ordering (protocol.md §6.6): a sequential plain producer alternates
 * between two topics, awaiting each acknowledgement, so its records are ordered across topics; a
 * pipelining producer that loses acknowledgements orders only what it learnt. Stages consuming
 * both topics (and one downstream of them) must deliver the producer's order.
 */
class EdgeProducerOrderingSimTests {

    static final Scenario EDGE_ORDER = Scenario.of("edge producer cross-topic ordering",
            EdgeProducerOrderingSimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        int parts = 1 + shape.nextInt(2);
        w.topic("t1", parts).topic("t2", parts).topic("t3", 1);
        w.producer("S").writes("t1", "t2").records(10 + shape.nextInt(12)).transactions(1 + shape.nextInt(3), 150)
                .build();
        w.producer("Q").writes("t2", "t1").records(4 + shape.nextInt(8)).plain().pipelining(300).build();
        w.node("C").consumes("t1", "t2").route("t3", 600).crashes(shape.nextInt(3)).build();
        w.node("D").consumes("t1", "t3").crashes(shape.nextInt(2)).build();
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void aSequentialEdgeProducersOrderAcrossTopicsIsDelivered(long seed) {
        SimSeeds.run(EdgeProducerOrderingSimTests.class, seed, EDGE_ORDER);
    }
}
