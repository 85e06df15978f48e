package io.github.tobyjamesclements.parsley;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Shared-input races: two stages consume the same input and race to a downstream stage that
 * consumes the input too, so the downstream gate must order both stages' outputs after their
 * causes on the shared input, under crashes and aborted transactions.
 */
class SharedInputRaceSimTests {

    static final Scenario SHARED_INPUT = Scenario.of("shared input races", SharedInputRaceSimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        int parts = 1 + shape.nextInt(2);
        w.topic("t1", parts).topic("t2", parts).topic("t3", parts);
        w.producer("P1").writes("t1").records(8 + shape.nextInt(12)).transactions(1 + shape.nextInt(3), 200).build();
        w.producer("P2").writes("t1").records(4 + shape.nextInt(8)).plain().build();
        w.node("A").consumes("t1").route("t2", 800).route("t3", 300).crashes(shape.nextInt(3)).build();
        w.node("B").consumes("t1").route("t3", 700).crashes(shape.nextInt(3)).build();
        w.node("C").consumes("t1", "t2", "t3").crashes(shape.nextInt(2)).build();
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void racingStagesOnASharedInputDeliverCausally(long seed) {
        SimSeeds.run(SharedInputRaceSimTests.class, seed, SHARED_INPUT);
    }
}
