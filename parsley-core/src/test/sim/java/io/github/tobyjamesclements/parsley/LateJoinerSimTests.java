package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The late-joiner sequence-claim probe (protocol.md §5.2, §15 item 5). A writes each record to
 * t2 and then t3, so its t3 records carry sequence claims on t2; B relays t3 to t4 without
 * consuming t2, so it cannot resolve those claims and forwards them verbatim. J consumes t2 and t4
 * and joins after A finished. Starting at the log end, J can never deliver the claimed t2 records
 * (they are below its baseline): the world wedges on a {@code SENDER_UNSEEN} head, the documented
 * limitation, demonstrated (unless J crashed before its first commit: it then restarts at the log
 * end again, past every relayed record, and has nothing left to hold). Starting from the earliest
 * offset, J drains.
 */
class LateJoinerSimTests {

    static final Scenario FROM_START = Scenario.of("from-start joiner drains",
            (seed, fault) -> world(seed, fault, SimNode.StartAt.EARLIEST));

    /**
     * Expects the wedge: returns normally when the at-latest joiner wedged as §5.2 predicts, or
     * drained only because a restart moved its start past the claims.
     */
    static final Scenario AT_LATEST = new Scenario() {
        @Override
        public String name() {
            return "at-latest joiner wedges on an unresolvable sequence claim";
        }

        @Override
        public SimStats run(long seed, Fault fault) {
            SimWorld w = world(seed, fault, SimNode.StartAt.LATEST);
            SimViolation wedge = catchThrowableOfType(SimViolation.class, w::runToDrain);
            SimNode j = w.nodes().stream().filter(n -> n.toString().equals("J")).findFirst().orElseThrow();
            if (wedge == null) {
                // J crashed before its first commit and restarted at the log end again, past every
                // relayed record that claimed the unseen sender: nothing is left to hold. Any other
                // drain would mean J delivered a record whose claim it could not have satisfied.
                assertThat(j.incarnations()).as("the at-latest joiner drained without a restart").isGreaterThan(1);
                return w.stats();
            }
            assertThat(wedge.kind()).isEqualTo("WEDGE");
            assertThat(wedge.getMessage()).contains("node J").contains("SENDER_UNSEEN");
            return w.stats();
        }
    };

    static SimWorld world(long seed, Fault fault, SimNode.StartAt joinAt) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        w.topic("t1", 1).topic("t2", 1).topic("t3", 1).topic("t4", 1);
        SimProducer p = w.producer("P").writes("t1").records(3 + shape.nextInt(8)).transactions(1 + shape.nextInt(3), 0)
                .build();
        SimNode a = w.node("A").consumes("t1").route("t2", 1000).route("t3", 1000).build();
        SimNode j = w.node("J").consumes("t2", "t4").startAt(joinAt).startWhen(x -> p.done() && a.idle())
                .crashes(shape.nextInt(2)).build();
        w.node("B").consumes("t3").route("t4", 1000).startWhen(x -> j.up()).crashes(shape.nextInt(2)).build();
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void aJoinerAtTheLogEndWedgesOnASequenceClaimItCanNeverSatisfy(long seed) {
        SimSeeds.run(LateJoinerSimTests.class, seed, AT_LATEST);
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void aJoinerFromTheStartDrains(long seed) {
        SimSeeds.run(LateJoinerSimTests.class, seed, FROM_START);
    }
}
