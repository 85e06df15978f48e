package io.github.tobyjamesclements.parsley;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Transitive claims through a hop that does not consume the origin (protocol.md §3.6 E1, §3.7):
 * A consumes t1 and emits to t2, one or two relay stages carry t2 onwards without consuming t1,
 * and C consumes t1 and the relay's output, so only custody carries the claim on t1 to C's gate.
 */
class TransitiveCustodySimTests {

    static final Scenario E1_CHAIN = Scenario.of("transitive custody through an unconsumed hop",
            TransitiveCustodySimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        boolean twoRelays = shape.nextBoolean();
        w.topic("t1", 1).topic("t2", 1).topic("t3", 1).topic("t4", 1);
        int records = 10 + shape.nextInt(15);
        int lateStart = shape.nextInt(records);
        SimProducer p = w.producer("P").writes("t1").records(records).transactions(1 + shape.nextInt(3), 150).build();
        w.node("A").consumes("t1").route("t2", 900).crashes(shape.nextInt(3)).build();
        if (twoRelays) {
            w.node("B").consumes("t2").route("t3", 900).crashes(shape.nextInt(2)).build();
            w.node("B2").consumes("t3").route("t4", 900).crashes(shape.nextInt(2)).build();
            w.node("C").consumes("t1", "t4").slow("t1").startWhen(x -> p.sent() >= lateStart).crashes(shape.nextInt(2))
                    .build();
        } else {
            w.node("B").consumes("t2").route("t3", 900).crashes(shape.nextInt(3)).build();
            w.node("C").consumes("t1", "t3").slow("t1").startWhen(x -> p.sent() >= lateStart).crashes(shape.nextInt(2))
                    .build();
        }
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void claimsOnTheOriginSurviveAHopThatDoesNotConsumeIt(long seed) {
        SimSeeds.run(TransitiveCustodySimTests.class, seed, E1_CHAIN);
    }
}
