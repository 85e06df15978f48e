package io.github.tobyjamesclements.parsley;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fan-out (docs/protocol-decisions.md, "Fan-out"): two stages of one application consume
 * {@code payments}, each with another input of its own, in one shared task, so one transaction
 * commits or aborts both stages' steps; the task crashes mid-step, is handed over to another
 * instance, and one stage is redeployed with another input. A downstream stage reads both stages'
 * outputs and {@code payments}. The oracle judges each stage on its own: delivered causally,
 * completely and once, whatever the other stage did in the same transaction.
 */
class FanOutSimTests {

    static final Scenario FAN_OUT = Scenario.of("two stages on one topic in a shared task", FanOutSimTests::world);

    /** Planted: the host keys the protocol store by task, so stages sharing a task share holds and frontiers. */
    static final Fault SHARED_STORE = new Fault() {
        @Override
        public String name() {
            return "stages of a task share one protocol store";
        }

        @Override
        public String protocolStore(String stage, String task) {
            return task;
        }
    };

    static SimWorld world(long seed, Fault fault) {
        SimWorld w = SimWorld.create(seed, fault);
        SplittableRandom shape = w.shapes();
        w.topic("payments", 1).topic("orders", 1).topic("refunds", 1).topic("audit", 1).topic("balances", 1);
        w.producer("Shop").writes("orders", "payments", "refunds").records(10 + shape.nextInt(14))
                .transactions(1 + shape.nextInt(3), 150).build();
        w.producer("Bank").writes("payments").records(3 + shape.nextInt(6)).plain().build();
        SimTask task = w.task("payments-0").handovers(shape.nextInt(3));
        w.node("auditor").inTask(task).consumes("payments", "refunds").route("audit", 700)
                .slow(shape.nextBoolean() ? "refunds" : "payments").crashes(1 + shape.nextInt(3)).build();
        SimNode.Builder balances = w.node("balances").inTask(task).consumes("orders", "payments")
                .route("balances", 800).slow(shape.nextBoolean() ? "orders" : "payments");
        if (shape.nextBoolean()) {
            balances.thenRedeploy().consumes("orders", "payments", "refunds").route("balances", 800);
        }
        balances.crashes(1 + shape.nextInt(3)).build();
        w.node("reader").consumes("audit", "balances", "payments").slow(shape.nextBoolean() ? "audit" : "balances")
                .crashes(shape.nextInt(2)).build();
        return w;
    }

    static Stream<Long> seeds() {
        return SimSeeds.seeds();
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void twoStagesOnOneTopicEachDeliverCausallyThroughSharedCommitsAndCrashes(long seed) {
        SimSeeds.run(FanOutSimTests.class, seed, FAN_OUT);
    }
}
