package io.github.tobyjamesclements.parsley;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Directed scenario for protocol.md §16.10 (an absent position means nothing is known): fresh
 * consumers fetch several records from offset 0 of marker-free logs and sweep positions before
 * feeding them. A host that reads "nothing fed yet" as "offset 0 fed" reports the position while
 * the record at offset 0 is still buffered, and the frontier jumps over it.
 */
class UnknownPositionSimTests {

    static final Scenario FROM_OFFSET_ZERO = Scenario.of("fresh consumers from offset zero",
            UnknownPositionSimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        w.topic("t1", 1).topic("t2", 1);
        w.producer("P").writes("t1").records(3 + shape.nextInt(6)).plain().build();
        w.node("A").consumes("t1").route("t2", 1000).maxPoll(4).crashes(shape.nextInt(2)).build();
        w.node("C").consumes("t1", "t2").maxPoll(4).crashes(shape.nextInt(2)).build();
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void aRecordAtOffsetZeroIsNeverSkippedByAPositionReport(long seed) {
        SimSeeds.run(UnknownPositionSimTests.class, seed, FROM_OFFSET_ZERO);
    }
}
