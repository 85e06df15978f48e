package io.github.tobyjamesclements.parsley;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Observed causality from a plain consumer (protocol.md §6.6): a plain client reads t1 without a
 * gate, observes what it read (stamped and unstamped records alike) and writes t2. A stage that
 * consumes t1 and t2 must deliver every observed t1 record before the t2 record that followed it.
 */
class PlainConsumerObservationSimTests {

    static final Scenario OBSERVED = Scenario.of("observed causality from a plain consumer",
            PlainConsumerObservationSimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        w.topic("t1", 1).topic("t2", 1).topic("t3", 1);
        w.producer("P").writes("t1").records(8 + shape.nextInt(10)).transactions(1 + shape.nextInt(3), 150).build();
        w.producer("U").writes("t1").records(3 + shape.nextInt(5)).plain().unstamped().build();
        w.producer("O").observes("t1").writes("t2").records(8 + shape.nextInt(10))
                .transactions(1 + shape.nextInt(2), 100).build();
        w.node("C").consumes("t1", "t2").route("t3", 500).crashes(shape.nextInt(3)).build();
        w.node("D").consumes("t1", "t3").crashes(shape.nextInt(2)).build();
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void recordsAPlainConsumerObservedPrecedeWhatItWroteNext(long seed) {
        SimSeeds.run(PlainConsumerObservationSimTests.class, seed, OBSERVED);
    }
}
