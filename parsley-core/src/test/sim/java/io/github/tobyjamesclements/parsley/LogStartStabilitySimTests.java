package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Log-start stability (protocol.md §8.2): after a drained E1 world loses its whole history to
 * retention, a truncation sweep empties every stamp-side clock (advertised clocks and carried
 * ancestry keep no offset claim), and a joiner that starts from the earliest offset afterwards
 * drains together with the old stages as new records arrive.
 */
class LogStartStabilitySimTests {

    static final Scenario FULL_RETENTION = new Scenario() {
        @Override
        public String name() {
            return "full retention, truncation, then a from-earliest joiner";
        }

        @Override
        public SimStats run(long seed, Fault fault) {
            SimWorld w = SimWorld.create(seed, fault);
            SplittableRandom shape = w.shapes();
            w.topic("t1", 1).topic("t2", 1).topic("t3", 1);
            w.producer("P").writes("t1").records(6 + shape.nextInt(10)).transactions(1 + shape.nextInt(3), 150)
                    .build();
            w.node("A").consumes("t1").route("t2", 900).crashes(shape.nextInt(2)).build();
            w.node("B").consumes("t2").route("t3", 900).crashes(shape.nextInt(2)).build();
            w.node("C").consumes("t1", "t3").crashes(shape.nextInt(2)).build();
            w.runToDrain();

            w.nodes().forEach(SimNode::truncateNow);
            w.retainEverything();
            w.nodes().forEach(SimNode::truncateNow);
            for (SimNode n : w.nodes()) {
                assertThat(n.causalNode().state().stampChannels()).as("stamp-side offset claims of %s", n.name).isEmpty();
            }

            boolean[] truncated = {true};
            w.node("J").consumes("t1", "t3").crashes(shape.nextInt(2)).startWhen(x -> truncated[0]).build();
            w.producer("P2").writes("t1").records(4 + shape.nextInt(8)).transactions(1 + shape.nextInt(3), 150)
                    .build();
            w.runToDrain();
            return w.stats();
        }
    };

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void fullRetentionEmptiesStampSideClocksAndAFromEarliestJoinerDrains(long seed) {
        SimSeeds.run(LogStartStabilitySimTests.class, seed, FULL_RETENTION);
    }
}
