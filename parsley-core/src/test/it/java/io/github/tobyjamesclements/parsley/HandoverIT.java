package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
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
 * How long the tasks of a closed instance wait before another instance of the same application, or
 * the same instance restarted, runs them. Kafka Streams' own close keeps the member in the group
 * until its session times out (45 s by default), so a scaled-down or restarting instance's
 * partitions stall that long; Parsley's close leaves the group, and the tasks move at once. A
 * static member ({@code group.instance.id}) chose to keep its tasks through a bounce, and keeps
 * them.
 *
 * <p>Each test prints what it measured, so the figure can be read from the build output.
 */
class HandoverIT {

    private static final int PARTITIONS = 4;

    /** Far below the default 45 s session timeout, far above a handover on leave (about 1-3 s here). */
    private static final Duration HANDOVER_BOUND = Duration.ofSeconds(15);

    /** The consumer's own defaults, as in production: a 45 s session timeout. */
    private static final BiConsumer<Properties, String> CONSUMER_DEFAULTS = (p, instance) -> {
        p.remove(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG));
        p.remove(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG));
    };

    @TempDir
    Path firstStateDir;

    @TempDir
    Path secondStateDir;

    @Test
    void aClosedInstanceHandsItsTasksOverWithoutWaitingForItsSessionToExpire() throws Exception {
        Counting app = Counting.create("handover");
        try (CausalStreams first = app.start(firstStateDir, "first", CONSUMER_DEFAULTS);
                CausalStreams second = app.start(secondStateDir, "second", CONSUMER_DEFAULTS)) {
            app.awaitShared(first, second);
            long start = System.nanoTime();
            assertThat(first.close(Duration.ofSeconds(30))).as("first instance closed in time").isTrue();
            long closed = System.nanoTime();
            app.sendOnePerPartition(2);
            Awaitility.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(20))
                    .until(() -> activeTasks(second) == PARTITIONS);
            long owned = System.nanoTime();
            Duration handover = app.awaitDelivered(2, start);
            System.out.printf("Handover on close: %d ms until the survivor delivered (close %d ms, all %d tasks"
                    + " owned after %d ms)%n", handover.toMillis(), millis(closed - start), PARTITIONS,
                    millis(owned - start));
            assertThat(handover).as("close to next record delivered by the survivor").isLessThan(HANDOVER_BOUND);
        }
    }

    @Test
    void aRestartedInstanceRunsWithoutWaitingForItsFormerSelfToExpire() throws Exception {
        Counting app = Counting.create("restart");
        long start;
        try (CausalStreams before = app.start(firstStateDir, "first", CONSUMER_DEFAULTS)) {
            TestKafka.awaitRunning(before);
            app.sendOnePerPartition(1);
            app.awaitDelivered(1, System.nanoTime());
            start = System.nanoTime();
            assertThat(before.close(Duration.ofSeconds(30))).as("instance closed in time").isTrue();
        }
        try (CausalStreams after = app.start(firstStateDir, "first", CONSUMER_DEFAULTS)) {
            app.sendOnePerPartition(2);
            TestKafka.awaitRunning(after);
            long running = System.nanoTime();
            Duration restart = app.awaitDelivered(2, start);
            System.out.printf("Restart: %d ms from close until the restarted instance delivered (RUNNING after %d"
                    + " ms)%n", restart.toMillis(), millis(running - start));
            assertThat(restart).as("close to next record delivered after the restart").isLessThan(HANDOVER_BOUND);
        }
    }

    @Test
    void aStaticMemberKeepsItsTasksUntilItsSessionExpires() throws Exception {
        Duration session = Duration.ofSeconds(10);
        BiConsumer<Properties, String> staticMember = (p, instance) -> {
            p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), (int) session.toMillis());
            p.put(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), instance);
        };
        Counting app = Counting.create("static");
        try (CausalStreams first = app.start(firstStateDir, "first", staticMember);
                CausalStreams second = app.start(secondStateDir, "second", staticMember)) {
            app.awaitShared(first, second);
            long start = System.nanoTime();
            assertThat(first.close(Duration.ofSeconds(30))).as("first instance closed in time").isTrue();
            Awaitility.await("the closed static member keeps its tasks").during(session.dividedBy(2))
                    .atMost(session).pollInterval(Duration.ofMillis(50))
                    .until(() -> activeTasks(second) < PARTITIONS);
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .until(() -> activeTasks(second) == PARTITIONS);
            System.out.printf("Static member: the survivor owned all %d tasks %d ms after the close (session"
                    + " timeout %d ms)%n", PARTITIONS, millis(System.nanoTime() - start), session.toMillis());
            app.sendOnePerPartition(2);
            app.awaitDelivered(2, start);
        }
    }

    private static long activeTasks(CausalStreams streams) {
        return streams.metadataForLocalThreads().stream().map(ThreadMetadata::activeTasks).mapToLong(s -> s.size())
                .sum();
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }

    /** A stateful stage that forwards every input record, on fresh topics. */
    private record Counting(Parsley parsley, String in, String out) {

        static Counting create(String name) {
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
            return new Counting(Parsley.named(TestKafka.unique(name), counter), in, out);
        }

        CausalStreams start(Path stateDir, String instance, BiConsumer<Properties, String> settings) {
            Properties p = TestKafka.streamsProps(parsley.applicationId(), stateDir);
            settings.accept(p, instance);
            CausalStreams streams = parsley.streams(p);
            streams.start();
            return streams;
        }

        /** Waits until both instances run some of the tasks and every task delivered a first record. */
        void awaitShared(CausalStreams first, CausalStreams second) throws Exception {
            Awaitility.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50))
                    .until(() -> activeTasks(first) > 0 && activeTasks(second) > 0
                            && activeTasks(first) + activeTasks(second) == PARTITIONS);
            sendOnePerPartition(1);
            awaitDelivered(1, System.nanoTime());
        }

        /** One record on every input partition, so every task has a record to deliver. */
        void sendOnePerPartition(int round) throws ExecutionException, InterruptedException {
            try (KafkaProducer<String, String> producer = TestKafka.producer()) {
                for (int p = 0; p < PARTITIONS; p++) {
                    producer.send(new ProducerRecord<>(in, p, "p" + p, "round " + round)).get();
                }
            }
        }

        /** Waits until {@code rounds} records per partition were delivered; returns the time since {@code start}. */
        Duration awaitDelivered(int rounds, long start) {
            TestKafka.readCommitted(out, rounds * PARTITIONS, Duration.ofSeconds(120));
            return Duration.ofNanos(System.nanoTime() - start);
        }
    }
}
