package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read-your-writes through three instances of one application, one of which crashes mid-run and is
 * replaced by an instance on empty state (protocol.md §17): a client sends payments, each time
 * reads its customer's payment count with the token of what it sent, from a random instance, and
 * follows an {@link StateRead.Elsewhere} to the owner. Every answer must count exactly the payments
 * sent for that customer: fewer is a stale read, more is a wrong one. While tasks move, reads get
 * "not ready" answers, never stale ones. Seeded; the seed is printed.
 */
class ReadYourWritesIT {

    private static final int PAYMENTS = 150;
    private static final int CUSTOMERS = 24;
    private static final int CRASH_AT = 50;
    private static final int REPLACE_AT = 80;

    @TempDir
    Path stateDir;

    private final Map<Integer, CausalStreams> instances = new HashMap<>();
    private final Map<Integer, AtomicBoolean> crash = new HashMap<>();

    @Test
    void everyReadReflectsTheClientsWritesThroughACrashAndAReplacement() throws Exception {
        long seed = Long.getLong("parsley.seed", System.nanoTime());
        System.out.println("ReadYourWritesIT seed=" + seed + " (replay with -Dparsley.seed=" + seed + ")");
        Random random = new Random(seed);
        String payments = TestKafka.unique("ryw-payments");
        String out = TestKafka.unique("ryw-out");
        TestKafka.createTopic(payments, 6);
        TestKafka.createTopic(out, 6);
        String applicationId = TestKafka.unique("ryw");
        try (KafkaProducer<String, String> producer = TestKafka.producer()) {
            for (int i = 1; i <= 3; i++) {
                start(applicationId, i, payments, out);
            }
            instances.values().forEach(TestKafka::awaitRunning);
            CausalClock clock = new CausalClock(TestKafka.admin());
            Map<String, Long> sent = new HashMap<>();
            Set<Integer> answeredBy = new TreeSet<>();
            List<String> stale = new ArrayList<>();
            int notReady = 0;
            for (int n = 0; n < PAYMENTS; n++) {
                if (n == CRASH_AT) {
                    crash.get(2).set(true);
                }
                if (n == REPLACE_AT) {
                    Awaitility.await().atMost(Duration.ofSeconds(60))
                            .until(() -> instances.get(2).state() == KafkaStreams.State.ERROR
                                    || instances.get(2).state() == KafkaStreams.State.NOT_RUNNING);
                    instances.remove(2).close(Duration.ofSeconds(10));
                    start(applicationId, 4, payments, out);
                }
                String customer = "c" + random.nextInt(CUSTOMERS);
                clock.recordProduced(producer.send(new ProducerRecord<>(payments, customer, "1")).get());
                long expected = sent.merge(customer, 1L, Long::sum);
                CausalToken token = clock.token();
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (true) {
                    int asked = askable(random);
                    StateRead<Long> r = instances.get(asked).read("balances", customer, token, Duration.ofSeconds(5));
                    if (r instanceof StateRead.Elsewhere<Long> e) {
                        asked = e.port() - 9000;
                        CausalStreams owner = instances.get(asked);
                        r = owner == null || owner.state() != KafkaStreams.State.RUNNING
                                ? new StateRead.NotReady<>("balances", StateRead.Reason.NO_OWNER, "owner down", List.of())
                                : owner.read("balances", customer, token, Duration.ofSeconds(5));
                    }
                    if (r instanceof StateRead.Found<Long> f) {
                        answeredBy.add(asked);
                        if (f.value() != expected) {
                            stale.add(customer + ": read " + f.value() + " after " + expected + " payments");
                        }
                        assertThat(f.token().includes(token)).isTrue();
                        break;
                    }
                    if (r instanceof StateRead.Absent<Long>) {
                        stale.add(customer + ": absent after " + expected + " payments");
                        break;
                    }
                    notReady++;
                    assertThat(System.nanoTime() - deadline).as("a read answered within a minute; last: %s", r)
                            .isNegative();
                }
            }
            System.out.println("ReadYourWritesIT: " + PAYMENTS + " reads answered, " + notReady + " not ready, stale "
                    + stale.size() + ", answered by instances " + answeredBy);
            assertThat(stale).as("stale or wrong reads").isEmpty();
            assertThat(answeredBy).as("instances that answered").contains(1, 3, 4);
        } finally {
            instances.values().forEach(s -> s.close(Duration.ofSeconds(10)));
        }
    }

    /** A running instance, at random. */
    private int askable(Random random) {
        List<Integer> live = instances.entrySet().stream()
                .filter(e -> e.getValue().state() == KafkaStreams.State.RUNNING
                        || e.getValue().state() == KafkaStreams.State.REBALANCING)
                .map(Map.Entry::getKey).sorted().toList();
        return live.get(random.nextInt(live.size()));
    }

    /**
     * Starts instance {@code i}, advertised as {@code localhost:900i}; its fold fails the task once
     * its crash switch is set, which ends the client (a crash: the open transaction aborts).
     */
    private void start(String applicationId, int i, String payments, String out) {
        AtomicBoolean dies = new AtomicBoolean();
        crash.put(i, dies);
        Topic<String, String> p = Topic.of(payments, Codec.utf8(), Codec.utf8());
        Topic<String, String> o = Topic.of(out, Codec.utf8(), Codec.utf8());
        Parsley app = Parsley.named(applicationId, Stage.named("balances").state(Codec.int64(), () -> 0L)
                .on(p, (Long count, Message<String, String> m) -> {
                    if (dies.get()) {
                        throw new IllegalStateException("planned crash of instance " + i);
                    }
                    return Step.of(count + 1);
                })
                .into(o).build());
        Properties props = TestKafka.streamsProps(applicationId, stateDir.resolve("instance-" + i));
        props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, "localhost:" + (9000 + i));
        CausalStreams streams = app.streams(props);
        streams.start();
        instances.put(i, streams);
    }
}
