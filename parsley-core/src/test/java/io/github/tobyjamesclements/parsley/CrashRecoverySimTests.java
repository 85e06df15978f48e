package io.github.tobyjamesclements.parsley;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Crash-recovery chains (protocol.md §9.3, V3): a chain of stages with two sinks each crashes
 * repeatedly, idle and mid-step, aborting transactions that already sent; restarts go through the
 * full init path, so own outputs across incarnations are claimed only by the end-offset seed.
 */
class CrashRecoverySimTests {

    static final Scenario CRASH_CHAIN = Scenario.of("crash-recovery chain", CrashRecoverySimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        w.topic("t1", 1).topic("t2", 1).topic("t3", 1).topic("t4", 1);
        w.producer("P").writes("t1").records(12 + shape.nextInt(14)).transactions(1 + shape.nextInt(3), 150).build();
        w.node("A").consumes("t1").route("t2", 700).route("t3", 700).crashes(2 + shape.nextInt(4)).build();
        w.node("B").consumes("t2").route("t4", 800).crashes(1 + shape.nextInt(4)).build();
        w.node("C").consumes("t3", "t4", "t2").crashes(1 + shape.nextInt(3)).build();
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void aChainThatKeepsCrashingDeliversCausallyAndCompletely(long seed) {
        SimSeeds.run(CrashRecoverySimTests.class, seed, CRASH_CHAIN);
    }
}
