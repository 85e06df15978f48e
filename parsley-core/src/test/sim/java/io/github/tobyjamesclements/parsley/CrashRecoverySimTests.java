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

    static final Scenario RESTARTING_WRITER = Scenario.of("restarting two-sink writer, lagging reader",
            CrashRecoverySimTests::restartingWriter);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        w.topic("t1", 1).topic("t2", 1).topic("t3", 1).topic("t4", 1);
        w.producer("P").writes("t1").records(12 + shape.nextInt(14)).transactions(1 + shape.nextInt(3), 150).build();
        w.node("A").consumes("t1").route("t2", 700).route("t3", 700).crashes(2 + shape.nextInt(4)).build();
        w.node("B").consumes("t2").route("t4", 800).crashes(1 + shape.nextInt(4)).build();
        w.node("C").consumes("t3", "t4", "t2").slow(shape.nextBoolean() ? "t2" : "t3").crashes(1 + shape.nextInt(3))
                .build();
        return w;
    }

    /**
     * A writer of two sinks restarts often, so its end-offset seeds name commit markers between its
     * own records; the reader of both sinks lags on the first, so its queue on the second holds a
     * head with a marker run behind it (protocol.md §4.3) while own outputs of earlier incarnations
     * are still unread (§6.4).
     */
    static SimWorld restartingWriter(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        w.topic("t1", 1).topic("t2", 1).topic("t3", 1);
        w.producer("P").writes("t1").records(10 + shape.nextInt(10)).transactions(1 + shape.nextInt(2), 100).build();
        w.node("W").consumes("t1").route("t2", 1000).route("t3", 1000).maxPoll(1).crashes(3 + shape.nextInt(5))
                .build();
        w.node("N").consumes("t2", "t3").slow("t2").crashes(shape.nextInt(2)).build();
        return w;
    }

    static final Scenario SHARED_SINK_HOLDS = Scenario.of("two writers share a sink, a crashing reader holds both",
            CrashRecoverySimTests::sharedSinkHolds);

    /**
     * Two writers send to one partition, one of them also to a second topic that the reader lags
     * on, so that the reader's queue on the shared partition holds both writers' records, tagged
     * alternately, when it crashes; the reader crashes only while it holds three records or more,
     * so every restart restores that queue from the store. A restored entry that took another
     * sender's tag would advance the wrong delivered-sequence mark (§3.8).
     */
    static SimWorld sharedSinkHolds(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        w.topic("t0", 1).topic("t1", 1).topic("t2", 1).topic("t3", 1);
        w.producer("P").writes("t1").records(8 + shape.nextInt(10)).transactions(1 + shape.nextInt(2), 100).build();
        w.producer("Q").writes("t0").records(8 + shape.nextInt(10)).transactions(1 + shape.nextInt(2), 100).build();
        w.node("W").consumes("t1").route("t3", 1000).route("t2", 1000).build();
        w.node("V").consumes("t0").route("t2", 1000).build();
        w.node("N").consumes("t2", "t3").slow("t3").crashesHolding(3 + shape.nextInt(4), 3).build();
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

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void aRestartingWritersOutputsStayOrderedForALaggingReader(long seed) {
        SimSeeds.run(CrashRecoverySimTests.class, seed, RESTARTING_WRITER);
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void restoredHoldsOfTwoWritersKeepEachWritersTag(long seed) {
        SimSeeds.run(CrashRecoverySimTests.class, seed, SHARED_SINK_HOLDS);
    }
}
