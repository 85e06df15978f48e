package io.github.tobyjamesclements.parsley;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Directed scenario for protocol.md §16.1 (the init seed uses the high watermark): a sibling
 * producer S holds a transaction open on the shared sink p, below N's committed records there.
 * N is redeployed (a restart under new handler code, same scope) and from then on writes only q,
 * so its q records claim its earlier p records through the end-offset seed alone. C, consuming p
 * and q, cannot read N's p records until S ends; a seed at the last stable offset would let C
 * deliver N's q records first.
 */
class HighWatermarkSeedSimTests {

    static final Scenario OPEN_SIBLING = Scenario.of("open sibling transaction on a shared sink across a restart",
            HighWatermarkSeedSimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        w.topic("src", 1).topic("p", 1).topic("q", 1);
        SimProducer p1 = w.producer("P1").writes("src").records(2 + shape.nextInt(5)).plain().build();
        SimNode[] n = new SimNode[1];
        SimNode[] c = new SimNode[1];
        SimProducer[] p2 = new SimProducer[1];
        SimProducer s = w.producer("S").writes("p").records(1).transactions(1, 0)
                .commitWhen(x -> p2[0].done() && n[0].idle() && c[0].idle()).build();
        n[0] = w.node("N").consumes("src").route("p", 1000).sinks("q").startWhen(x -> s.transactionOpen())
                .thenRedeploy().consumes("src").sinks("p").route("q", 1000)
                .redeployWhen(x -> p1.done() && n[0].idle()).crashes(shape.nextInt(2)).build();
        c[0] = w.node("C").consumes("p", "q").crashes(shape.nextInt(2)).build();
        p2[0] = w.producer("P2").writes("src").records(2 + shape.nextInt(5)).plain()
                .startWhen(x -> n[0].redeployed()).build();
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void ownOutputsBehindAnOpenSiblingTransactionStayClaimedAfterARestart(long seed) {
        SimSeeds.run(HighWatermarkSeedSimTests.class, seed, OPEN_SIBLING);
    }
}
