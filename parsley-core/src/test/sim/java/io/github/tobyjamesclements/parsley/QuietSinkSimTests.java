package io.github.tobyjamesclements.parsley;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Filter stages with quiet sinks and trailing markers (protocol.md §14.3, the V9 "quiet sink"
 * construction): A filters t1 into t2; D consumes t5 and first copies it into t2, then is
 * redeployed to write only t4, keeping t2 declared; C consumes t4 and t2. Once t1 and D's first
 * input fall silent, t2 ends in a commit marker; D's redeploy seeds its own outputs on t2 (it sent
 * there, §6.4) at that marker, and its later t4 records carry the claim to C. Only the position
 * advance on t2 (H2) can release C.
 */
class QuietSinkSimTests {

    static final Scenario QUIET_SINK = Scenario.of("quiet sink with a trailing marker", QuietSinkSimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        w.topic("t1", 1).topic("t2", 1).topic("t4", 1).topic("t5", 1);
        SimProducer p1 = w.producer("P1").writes("t1").records(4 + shape.nextInt(8))
                .transactions(1 + shape.nextInt(3), 100).build();
        SimNode a = w.node("A").consumes("t1").route("t2", 400 + shape.nextInt(500)).crashes(shape.nextInt(2))
                .build();
        SimProducer p5 = w.producer("P5").writes("t5").records(1 + shape.nextInt(4)).transactions(1, 100).build();
        SimNode[] later = new SimNode[1];
        SimNode d = w.node("D").consumes("t5").route("t2", 1000).thenRedeploy().consumes("t5").sinks("t2")
                .route("t4", 1000)
                .redeployWhen(x -> p1.done() && p5.done() && later[0].idle() && a.idle()).build();
        later[0] = d;
        SimNode.Builder c = w.node("C").consumes("t4", "t2").crashes(shape.nextInt(2));
        if (shape.nextInt(4) > 0) {
            // a variant where C also consumes the origin, lagging on it, so t2 holds while positions arrive
            c.consumes("t1").slow("t1");
        }
        c.build();
        w.producer("P5b").writes("t5").records(3 + shape.nextInt(6)).transactions(1 + shape.nextInt(2), 100)
                .startWhen(x -> d.redeployed()).build();
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void aClaimOnATrailingMarkerOfAQuietSinkIsReleasedByThePositionAdvance(long seed) {
        SimSeeds.run(QuietSinkSimTests.class, seed, QUIET_SINK);
    }
}
