package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How long the tasks of a closed instance wait before a surviving instance of the same application
 * runs them. Kafka Streams' own close keeps the member in the group until its session times out
 * (45 s by default), so a scaled-down or restarting instance's partitions stall that long;
 * Parsley's close leaves the group, and the survivor takes over at once. A static member
 * ({@code group.instance.id}) chose to keep its tasks through a bounce, and keeps them.
 *
 * <p>Each test prints what it measured, so the figure can be read from the build output.
 */
class HandoverIT {

    private static final int PARTITIONS = 4;

    /** Far below the default 45 s session timeout, far above a handover on leave (about 1-3 s here). */
    private static final Duration HANDOVER_BOUND = Duration.ofSeconds(15);

    @TempDir
    Path firstStateDir;

    @TempDir
    Path secondStateDir;

    @Test
    void aClosedInstanceHandsItsTasksOverWithoutWaitingForItsSessionToExpire() throws Exception {
        Pair pair = startPair("handover", (p, instance) -> {
            // The consumer's own defaults, as in production: a 45 s session timeout.
            p.remove(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG));
            p.remove(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG));
        });
        try (CausalStreams second = pair.second) {
            long start = System.nanoTime();
            assertThat(pair.first.close(Duration.ofSeconds(30))).as("first instance closed in time").isTrue();
            long closed = System.nanoTime();
            pair.sendOnePerPartition(2);
            Awaitility.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(20))
                    .until(() -> activeTasks(second) == PARTITIONS);
            long owned = System.nanoTime();
            TestKafka.readCommitted(pair.out, 2 * PARTITIONS, Duration.ofSeconds(120));
            long delivered = System.nanoTime();
            Duration handover = Duration.ofNanos(delivered - start);
            System.out.printf("Handover on close: %d ms until the survivor delivered (close %d ms, all %d tasks"
                    + " owned after %d ms)%n", handover.toMillis(), (closed - start) / 1_000_000, PARTITIONS,
                    (owned - start) / 1_000_000);
            assertThat(handover).as("close to next record delivered by the survivor").isLessThan(HANDOVER_BOUND);
        }
    }

    @Test
    void aStaticMemberKeepsItsTasksUntilItsSessionExpires() throws Exception {
        Duration session = Duration.ofSeconds(10);
        Pair pair = startPair("static", (p, instance) -> {
            p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), (int) session.toMillis());
            p.put(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG),
                    instance);
        });
        try (CausalStreams second = pair.second) {
            long start = System.nanoTime();
            assertThat(pair.first.close(Duration.ofSeconds(30))).as("first instance closed in time").isTrue();
            Awaitility.await("the closed static member keeps its tasks").during(session.dividedBy(2))
                    .atMost(session).pollInterval(Duration.ofMillis(50))
                    .until(() -> activeTasks(second) < PARTITIONS);
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .until(() -> activeTasks(second) == PARTITIONS);
            System.out.printf("Static member: the survivor owned all %d tasks %d ms after the close (session"
                    + " timeout %d ms)%n", PARTITIONS, (System.nanoTime() - start) / 1_000_000, session.toMillis());
            pair.sendOnePerPartition(2);
            TestKafka.readCommitted(pair.out, 2 * PARTITIONS, Duration.ofSeconds(60));
        }
    }

    /** Two running instances of one counting application that share its tasks, each task past one record. */
    private Pair startPair(String name, BiConsumer<Properties, String> settings) throws Exception {
        String in = TestKafka.unique(name + "-in");
        String out = TestKafka.unique(name + "-out");
        TestKafka.createTopic(in, PARTITIONS);
        TestKafka.createTopic(out, PARTITIONS);
        Topic<String, String> tin = Topic.of(in, Codec.utf8(), Codec.utf8());
        Topic<String, String> tout = Topic.of(out, Codec.utf8(), Codec.utf8());
        Stage counter = Stage.named("counter").state(Codec.int64(), () -> 0L)
                .on(tin, (Long n, Message<String, String> m) -> Step.of(n + 1, tout.send(m.key(), m.value())))
                .into(tout)
                .build();
        Parsley app = Parsley.named(TestKafka.unique(name), counter);
        CausalStreams first = app.streams(props(app, firstStateDir, "first", settings));
        first.start();
        TestKafka.awaitRunning(first);
        CausalStreams second = app.streams(props(app, secondStateDir, "second", settings));
        second.start();
        Awaitility.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50))
                .until(() -> activeTasks(first) > 0 && activeTasks(second) > 0
                        && activeTasks(first) + activeTasks(second) == PARTITIONS);
        Pair pair = new Pair(first, second, in, out);
        pair.sendOnePerPartition(1);
        TestKafka.readCommitted(out, PARTITIONS, Duration.ofSeconds(60));
        return pair;
    }

    private static Properties props(Parsley app, Path stateDir, String instance,
            BiConsumer<Properties, String> settings) {
        Properties p = TestKafka.streamsProps(app.applicationId(), stateDir);
        settings.accept(p, instance);
        return p;
    }

    private static long activeTasks(CausalStreams streams) {
        return streams.metadataForLocalThreads().stream().map(ThreadMetadata::activeTasks).mapToLong(s -> s.size())
                .sum();
    }

    private record Pair(CausalStreams first, CausalStreams second, String in, String out) {

        /** One record on every input partition, so every task has a record to deliver. */
        void sendOnePerPartition(int round) throws ExecutionException, InterruptedException {
            try (KafkaProducer<String, String> producer = TestKafka.producer()) {
                for (int p = 0; p < PARTITIONS; p++) {
                    producer.send(new ProducerRecord<>(in, p, "p" + p, "round " + round)).get();
                }
            }
        }
    }
}
