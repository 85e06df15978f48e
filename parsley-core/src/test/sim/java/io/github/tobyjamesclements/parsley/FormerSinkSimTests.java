package io.github.tobyjamesclements.parsley;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Directed scenario for protocol.md §16.2 (former sinks are resolved by topic id): B writes t4,
 * then is redeployed without t4 as a sink and writes t3 from then on. Its later t3 records must
 * still claim its t4 records, through the rescope heal into carried ancestry. A sibling
 * transaction held open on t4 keeps C, which consumes t3 and t4, from reading B's t4 records, so
 * a missing heal lets C deliver B's t3 records first.
 */
class FormerSinkSimTests {

    static final Scenario DROPPED_SINK = Scenario.of("sink dropped across a restart", FormerSinkSimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        w.topic("src", 1).topic("t3", 1).topic("t4", 1);
        SimProducer p1 = w.producer("P1").writes("src").records(2 + shape.nextInt(5)).plain().build();
        SimNode[] b = new SimNode[1];
        SimNode[] c = new SimNode[1];
        SimProducer[] p2 = new SimProducer[1];
        SimProducer s = w.producer("S").writes("t4").records(1).transactions(1, 0)
                .commitWhen(x -> p2[0].done() && b[0].idle() && c[0].idle()).build();
        b[0] = w.node("B").consumes("src").sinks("t3").route("t4", 1000).startWhen(x -> s.transactionOpen())
                .thenRedeploy().consumes("src").route("t3", 1000)
                .redeployWhen(x -> p1.done() && b[0].idle()).crashes(shape.nextInt(2)).build();
        c[0] = w.node("C").consumes("t3", "t4").crashes(shape.nextInt(2)).build();
        p2[0] = w.producer("P2").writes("src").records(2 + shape.nextInt(5)).plain()
                .startWhen(x -> b[0].redeployed()).build();
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void outputsAfterDroppingASinkStillClaimTheFormerSinksRecords(long seed) {
        SimSeeds.run(FormerSinkSimTests.class, seed, DROPPED_SINK);
    }
}
