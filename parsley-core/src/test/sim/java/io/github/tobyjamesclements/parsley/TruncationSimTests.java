package io.github.tobyjamesclements.parsley;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Truncation mid-history (protocol.md §8, V7): retention advances log starts behind every
 * subscriber while stages keep running and sweep their stamp-side clocks down to the log-start
 * bound; C joins (from the earliest offset) only after the relay's last sweep and lags on t1. Custody through the relay (E1 shape) means the relay's advertised clock is the only
 * carrier of claims on t1; an unstamped second writer of t2 makes the relay emit long after it
 * received A's claims, so truncating above the stable bound would lose them.
 */
class TruncationSimTests {

    static final Scenario MID_HISTORY = Scenario.of("truncation mid-history", TruncationSimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        w.topic("t1", 1).topic("t2", 1).topic("t3", 1);
        int records = 14 + shape.nextInt(12);
        boolean[] swept = {false};
        SimProducer p = w.producer("P").writes("t1").records(records).transactions(1 + shape.nextInt(3), 150).build();
        w.retention(6 + shape.nextInt(8));
        SimNode a = w.node("A").consumes("t1").route("t2", 900).truncations(1 + shape.nextInt(3))
                .crashes(shape.nextInt(2)).build();
        SimNode b = w.node("B").consumes("t2").route("t3", 300 + shape.nextInt(300)).truncations(2 + shape.nextInt(4))
                .crashes(shape.nextInt(2)).build();
        w.node("C").consumes("t1", "t3").slow("t1").startWhen(x -> swept[0])
                .truncations(shape.nextInt(3)).crashes(shape.nextInt(2)).build();
        w.when("sweep B once A fell silent", x -> p.done() && a.idle() && b.up() && !swept[0], () -> {
            swept[0] = true;
            b.truncateNow();
        });
        w.producer("Q").writes("t2").records(3 + shape.nextInt(6)).plain().unstamped().startWhen(x -> swept[0])
                .build();
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void truncatingBelowTheLogStartBoundIsInvisible(long seed) {
        SimSeeds.run(TruncationSimTests.class, seed, MID_HISTORY);
    }
}
