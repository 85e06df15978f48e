package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The wide soak: the seed also draws the topology. Five to seven topics of one or two partitions,
 * two or three edge producers of every kind (transactional, pipelining with lost acknowledgements,
 * unstamped, observing), three to five stages with random inputs and damped routes (cycles
 * allowed), crashes, truncation sweeps, lagging inputs, and either retention or late starts and
 * a redeploy that changes scope.
 */
class WideSoakSimTests {

    static final Scenario WIDE = Scenario.of("wide random topology", WideSoakSimTests::world);

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault).stepBudget(60_000);
        SplittableRandom shape = w.shapes();
        int topics = 5 + shape.nextInt(3);
        for (int i = 0; i < topics; i++) {
            w.topic("t" + i, 1 + shape.nextInt(2));
        }
        boolean retention = shape.nextInt(3) == 0;
        List<SimProducer> producers = new ArrayList<>();
        int producerCount = 2 + shape.nextInt(2);
        for (int i = 0; i < producerCount; i++) {
            SimProducer.Builder p = w.producer("P" + i).writes(i % 2 == 0 ? "t0" : "t1").records(4 + shape.nextInt(8));
            if (shape.nextBoolean()) {
                p.writes(i % 2 == 0 ? "t1" : "t0");
            }
            switch (shape.nextInt(4)) {
                case 0 -> p.transactions(1 + shape.nextInt(3), 150);
                case 1 -> p.plain().pipelining(300);
                case 2 -> p.plain().unstamped();
                default -> p.observes("t" + (2 + shape.nextInt(topics - 2))).transactions(1 + shape.nextInt(2), 100);
            }
            producers.add(p.build());
        }
        int nodes = 3 + shape.nextInt(3);
        int redeploying = retention ? -1 : shape.nextInt(nodes + 2);
        for (int k = 0; k < nodes; k++) {
            SimNode.Builder n = w.node("N" + k);
            declare(n, shape, topics, k);
            if (k == redeploying) {
                n.thenRedeploy();
                declare(n, shape, topics, k);
            }
            if (!retention && shape.nextInt(3) == 0) {
                SimProducer first = producers.get(0);
                int after = shape.nextInt(4);
                n.startWhen(x -> first.sent() >= after);
            }
            n.maxHops(3).crashes(shape.nextInt(3)).truncations(shape.nextInt(3)).build();
        }
        if (retention) {
            w.retention(3 + shape.nextInt(5));
        }
        return w;
    }

    private static void declare(SimNode.Builder n, SplittableRandom shape, int topics, int k) {
        int inputs = 1 + shape.nextInt(3);
        for (int i = 0; i < inputs; i++) {
            String t = "t" + shape.nextInt(Math.min(topics, k + 3));
            n.consumes(t);
            if (shape.nextInt(4) == 0) {
                n.slow(t);
            }
        }
        int routes = 1 + shape.nextInt(2);
        for (int i = 0; i < routes; i++) {
            n.route("t" + (2 + shape.nextInt(topics - 2)), 400 + shape.nextInt(500), shape.nextBoolean());
        }
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void randomTopologiesDeliverCausallyAndDrain(long seed) {
        SimSeeds.run(WideSoakSimTests.class, seed, WIDE);
    }
}
