package io.github.tobyjamesclements.parsley;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Poison records among ordinary traffic, crashes included (docs/protocol-decisions.md, "Dead
 * letters"). A producer writes some records with unreadable causal headers and some with values no
 * stage can decode; every stage's logic also fails on a seeded share of what it is delivered. Each
 * stage has a dead-letter topic. The oracle requires that every other record is delivered causally,
 * in order and once, that each poison record reaches each stage's dead letters exactly once (never
 * its logic) with the key, value and headers it arrived with, and that nothing else does, across
 * crashes idle and mid-step (between sends and dead letters).
 */
class DeadLetterSimTests {

    static final Scenario POISON_CHAIN = Scenario.of("poison records in a crashing chain",
            DeadLetterSimTests::poisonChain);

    static final Scenario HELD_POISON = Scenario.of("held poison across restarts", DeadLetterSimTests::heldPoison);

    /**
     * A chain whose last stage also consumes the poisoned input. Its head consumes a clean input too,
     * so it emits after passing a poison record that ends the poisoned input: the last stage must
     * pass that record as well, by its consumer position, or wait forever.
     */
    static SimWorld poisonChain(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        w.topic("t1", 1).topic("t2", 1).topic("t3", 1).topic("t4", 1).topic("t5", 1).topic("dlt", 1);
        w.producer("P").writes("t1").records(14 + shape.nextInt(14)).transactions(1 + shape.nextInt(3), 150)
                .poison(150).build();
        w.producer("Q").writes("t5").records(4 + shape.nextInt(8)).transactions(1 + shape.nextInt(2), 100).build();
        w.node("A").consumes("t1", "t5").route("t2", 700).route("t3", 700).deadLetters("dlt").failing(80)
                .crashes(2 + shape.nextInt(4)).build();
        w.node("B").consumes("t2").route("t4", 800).deadLetters("dlt").failing(80).crashes(1 + shape.nextInt(4))
                .build();
        w.node("C").consumes("t1", "t3", "t4", "t2").slow(shape.nextBoolean() ? "t1" : "t3").deadLetters("dlt")
                .failing(80).crashes(1 + shape.nextInt(3)).build();
        return w;
    }

    /**
     * A reader lags on one of a writer's two sinks, so records of the other wait in its hold queue,
     * cross restarts in the store, and are then released to logic that fails on a quarter of them:
     * their dead letters must carry the headers they arrived with.
     */
    static SimWorld heldPoison(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        w.topic("t1", 1).topic("t2", 1).topic("t3", 1).topic("dlt", 1);
        w.producer("P").writes("t1").records(10 + shape.nextInt(10)).transactions(1 + shape.nextInt(2), 100)
                .poison(120).build();
        w.node("W").consumes("t1").route("t2", 1000).route("t3", 1000).maxPoll(1).deadLetters("dlt")
                .crashes(1 + shape.nextInt(3)).build();
        w.node("N").consumes("t2", "t3").slow("t2").deadLetters("dlt").failing(250).crashes(3 + shape.nextInt(4))
                .build();
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void poisonIsDeadLetteredOnceAndEverythingElseDeliveredInOrder(long seed) {
        SimSeeds.run(DeadLetterSimTests.class, seed, POISON_CHAIN);
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void heldPoisonKeepsItsHeadersAcrossRestarts(long seed) {
        SimSeeds.run(DeadLetterSimTests.class, seed, HELD_POISON);
    }
}
