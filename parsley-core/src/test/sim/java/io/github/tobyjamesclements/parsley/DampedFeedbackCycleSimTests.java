package io.github.tobyjamesclements.parsley;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Damped feedback cycles (protocol.md §5.1 L3, V6): A and B feed each other (t1 -> t2 -> t1) and E
 * consumes its own sink, each up to a hop limit, so sequence claims echo back to their senders and
 * own-channel claims are normalised away; every cycle must drain.
 */
class DampedFeedbackCycleSimTests {

    static final Scenario CYCLES = Scenario.of("damped feedback cycles", DampedFeedbackCycleSimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        int hops = 2 + shape.nextInt(3);
        w.topic("t1", 1).topic("t2", 1).topic("t3", 1).topic("t4", 1);
        w.producer("P").writes("t1").records(5 + shape.nextInt(8)).transactions(1 + shape.nextInt(3), 150).build();
        w.producer("Q").writes("t4").records(2 + shape.nextInt(5)).plain().build();
        w.node("A").consumes("t1").route("t2", 800).route("t3", 300).maxHops(hops).crashes(shape.nextInt(3)).build();
        w.node("B").consumes("t2").route("t1", 700).maxHops(hops).crashes(shape.nextInt(3)).build();
        w.node("E").consumes("t3", "t4").route("t4", 600).route("t3", 200).maxHops(hops + 1)
                .crashes(shape.nextInt(2)).build();
        w.node("C").consumes("t1", "t2", "t4").crashes(shape.nextInt(2)).build();
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void dampedCyclesAndSelfLoopsDrain(long seed) {
        SimSeeds.run(DampedFeedbackCycleSimTests.class, seed, CYCLES);
    }
}
