package io.github.tobyjamesclements.parsley.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalStreams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The CI variant of the broker fault suite: a 3-broker KRaft cluster, each broker a JVM forked
 * from this test's classpath, and the suite's two-stage Parsley application (notifier over orders
 * and stamped payments, then a second hop) under the suite's load. In mid-run the broker
 * coordinating the application's transactions is restarted (controlled shutdown, then started
 * again). Every committed input must reach both hops exactly once, no payment before its order,
 * every fold exact, and the application must never leave RUNNING for good: no ERROR, no shutdown.
 * Broker logs stay in {@code target/broker-restart-it}.
 */
class BrokerRestartIT {

    private static final Duration GENEROUS = Duration.ofSeconds(90);
    private static final Path WORK = Path.of("target", "broker-restart-it").toAbsolutePath();

    private static BrokerCluster cluster;
    private static Admin admin;

    @BeforeAll
    static void startCluster() throws Exception {
        deleteRecursively(WORK);
        // Failsafe runs the tests from a manifest-only jar; the real classpath is in this property.
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        cluster = BrokerCluster.start(WORK, classpath, BrokerNetwork.loopback(3), Duration.ofSeconds(120));
        admin = cluster.admin();
    }

    @AfterAll
    static void stopCluster() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void parsleyDeliversEveryInputOnceInCausalOrderAcrossABrokerRestart() throws Exception {
        FaultTopics topics = FaultTopics.of("restart");
        topics.create(admin);
        String id = "restart-parsley";
        List<KafkaStreams.State> states = new CopyOnWriteArrayList<>();
        AtomicInteger maxHeld = new AtomicInteger();
        try (CausalStreams app = FaultApps.parsley(id, topics)
                .streams(FaultApps.streamsProps(cluster.bootstrap(), id, WORK.resolve("state")));
                OrderLoad load = new OrderLoad(cluster.bootstrap(), topics.orders(), topics.payments(), 12, 20,
                        Duration.ofMillis(150), System.out::println)) {
            app.setStateListener((now, before) -> states.add(now));
            app.start();
            await().until(() -> app.state() == KafkaStreams.State.RUNNING);
            load.start();
            await().until(() -> delivered(topics, maxHeld, app) >= 60);

            int broker = Coordinators.transactions(admin, id);
            int before = delivered(topics, maxHeld, app);
            System.out.printf("Restarting broker %d (transaction coordinator) after %d deliveries%n", broker, before);
            long restartAt = System.currentTimeMillis();
            cluster.stop(broker, Duration.ofSeconds(30));
            cluster.restart(broker, Duration.ofSeconds(120));
            await().until(() -> delivered(topics, maxHeld, app) >= before + 100);
            long recoveredAt = System.currentTimeMillis();

            load.pause();
            DeliveryCheck.Inputs in = DeliveryCheck.inputs(cluster.bootstrap(), topics);
            await().until(() -> delivered(topics, maxHeld, app) >= in.labels().size());
            DeliveryCheck.Result r = DeliveryCheck.check(cluster.bootstrap(), in, topics.notes(), topics.ledger(),
                    restartAt, recoveredAt);
            System.out.printf("Broker restart: %s (maxGapMillis: the longest output gap from the restart until 100 more"
                    + " deliveries), held at most %d%n", r, maxHeld.get());

            assertThat(r.expected()).as("committed inputs").isGreaterThan(before);
            assertThat(r.missing()).as("inputs missing at either hop").isZero();
            assertThat(r.duplicates()).as("inputs delivered twice").isZero();
            assertThat(r.unknown()).as("deliveries of no committed input").isZero();
            assertThat(r.paymentsBeforeOrder()).as("payments delivered before their order").isZero();
            assertThat(r.foldErrors()).as("fold values not exact").isZero();
            assertThat(states).as("states after start").doesNotContain(KafkaStreams.State.ERROR,
                    KafkaStreams.State.PENDING_ERROR, KafkaStreams.State.PENDING_SHUTDOWN,
                    KafkaStreams.State.NOT_RUNNING);
            assertThat(app.state()).isEqualTo(KafkaStreams.State.RUNNING);
        }
    }

    /** Distinct inputs on the ledger (the second hop), noting how many records Parsley holds meanwhile. */
    private static int delivered(FaultTopics topics, AtomicInteger maxHeld, CausalStreams app) {
        maxHeld.accumulateAndGet(app.explainHolds().size(), Math::max);
        return DeliveryCheck.distinctDelivered(cluster.bootstrap(), topics.ledger());
    }

    private static ConditionFactory await() {
        return Awaitility.await().atMost(GENEROUS).pollInterval(Duration.ofMillis(500)).ignoreExceptions();
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
