package io.github.tobyjamesclements.parsley;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scope shrink and grow across restarts (protocol.md §7.2, S8): B is redeployed without an input
 * and a sink and with a new input, and sometimes redeployed again to take the removed ones back.
 * Delivered past on a removed input moves into carried ancestry, a former sink is healed, a grown
 * input starts at the node's own knowledge of it; a redeploy while a removed input still holds
 * records is refused (F9) and retried once the queue drained.
 */
class ScopeChangeSimTests {

    static final Scenario SHRINK_GROW = Scenario.of("scope shrink and grow across restarts",
            ScopeChangeSimTests::world);

    /**
     * An input removed and taken back, with crashes while it refetches its prefix: the grown input's
     * seed is the only record of where its delivered past ends (protocol.md §7.1), since the
     * committed position of a slow refetch stays below it for a while.
     */
    static final Scenario READDED_INPUT = Scenario.of("input taken back, crashes during the refetch",
            ScopeChangeSimTests::readded);

    static SimWorld readded(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        w.topic("t1", 1).topic("t2", 1).topic("t3", 1);
        w.producer("P1").writes("t1").records(6 + shape.nextInt(6)).transactions(1 + shape.nextInt(2), 150).build();
        SimProducer p2 = w.producer("P2").writes("t2").records(10 + shape.nextInt(10))
                .transactions(1 + shape.nextInt(3), 150).build();
        SimNode[] b = new SimNode[1];
        b[0] = w.node("B").consumes("t1", "t2").route("t3", 600)
                .thenRedeploy().consumes("t1").route("t3", 800)
                .thenRedeploy().consumes("t1", "t2").route("t3", 600)
                .redeployWhen(x -> b[0].redeployed() || p2.done() && b[0].idle()).slow("t2")
                .crashes(shape.nextInt(3)).build();
        for (int i = 1 + shape.nextInt(3); i > 0; i--) {
            // right after a commit of the last deployment, while t2's refetch may still be below the seed
            w.when("crash B after a commit", x -> b[0].redeployed() && b[0].declaration().consumed().size() == 2
                    && b[0].committedClean(), b[0]::crashNow);
        }
        w.node("C").consumes("t2", "t3").crashes(shape.nextInt(2)).build();
        return w;
    }

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        w.topic("t1", 1).topic("t2", 1).topic("t3", 1).topic("t4", 1).topic("t5", 1);
        w.producer("P1").writes("t1").records(8 + shape.nextInt(10)).transactions(1 + shape.nextInt(3), 150).build();
        w.producer("P5").writes("t5").records(3 + shape.nextInt(6)).transactions(1 + shape.nextInt(2), 150).build();
        w.node("A").consumes("t1").route("t2", 800).crashes(shape.nextInt(2)).build();
        SimNode.Builder b = w.node("B").consumes("t1", "t2").route("t3", 600).route("t4", 600)
                .thenRedeploy().consumes("t1", "t5").route("t3", 800);
        if (shape.nextBoolean()) {
            b.thenRedeploy().consumes("t1", "t2", "t5").route("t3", 600).route("t4", 600);
        }
        b.crashes(shape.nextInt(3)).build();
        w.node("C").consumes("t1", "t2", "t3", "t4").slow(shape.nextBoolean() ? "t4" : "t2")
                .crashes(shape.nextInt(2)).build();
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void redeploysThatRemoveAndAddInputsAndSinksSkipButNeverDropPast(long seed) {
        SimSeeds.run(ScopeChangeSimTests.class, seed, SHRINK_GROW);
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void anInputTakenBackIsNeverRedeliveredBelowItsSeedAcrossRestarts(long seed) {
        SimSeeds.run(ScopeChangeSimTests.class, seed, READDED_INPUT);
    }
}
