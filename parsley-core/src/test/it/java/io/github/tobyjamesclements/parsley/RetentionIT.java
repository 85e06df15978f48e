package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention under a stage (protocol.md §8.2, §16.3): deleting records the stage already consumed
 * lets the truncation sweep narrow its clocks without disturbing order; deleting records it has
 * not consumed yet is data loss, and the stage fails closed naming the lost range.
 */
class RetentionIT {

    private static final int SIDE_PARTITIONS = 3;

    @TempDir
    Path stateDir;

    @Test
    void sweepNarrowsClocksOnceConsumedRecordsAreDeletedAndOrderStillHolds() throws Exception {
        String x = TestKafka.unique("retention-x");
        String y = TestKafka.unique("retention-y");
        String side = TestKafka.unique("retention-side");
        String out = TestKafka.unique("retention-out");
        for (String t : List.of(x, y, out)) {
            TestKafka.createTopic(t, 1);
        }
        TestKafka.createTopic(side, SIDE_PARTITIONS);
        Parsley app = Parsley.named(TestKafka.unique("retention-sweep"), relay(x, y, out, Duration.ofMillis(300)));

        try (CausalStreams streams = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir));
                KafkaProducer<String, String> plain = TestKafka.producer();
                KafkaProducer<String, String> slow = TestKafka.transactionalProducer()) {
            streams.start();
            TestKafka.awaitRunning(streams);
            CausalClock clock = new CausalClock(TestKafka.admin());
            for (int p = 0; p < SIDE_PARTITIONS; p++) {
                clock.recordProduced(plain.send(new ProducerRecord<>(side, p, "k", "side")).get());
            }
            send(plain, clock, x, "a1");
            send(plain, clock, y, "b1");
            TestKafka.readCommitted(out, 2, Duration.ofSeconds(30));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> offsetEntries(streams) == 5);

            for (int p = 0; p < SIDE_PARTITIONS; p++) {
                TestKafka.deleteRecordsBefore(side, p, 1);
            }
            TestKafka.deleteRecordsBefore(x, 0, TestKafka.endOffset(x, 0));
            TestKafka.deleteRecordsBefore(y, 0, TestKafka.endOffset(y, 0));

            // An idle stage does not truncate (it sends nothing); its next delivery arms truncation.
            send(plain, clock, y, "b1b");
            TestKafka.readCommitted(out, 3, Duration.ofSeconds(30));
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> offsetEntries(streams) == 2);
            assertThat(TestKafka.vcMetric(streams, "truncation-sweeps-skipped-total")).hasValue(0.0);

            slow.beginTransaction();
            clock.recordProduced(slow.send(new ProducerRecord<>(x, "k", "a2")).get());
            send(plain, clock, y, "b2");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> streams.explainHolds().size() == 1);
            slow.commitTransaction();

            assertThat(TestKafka.readCommitted(out, 5, Duration.ofSeconds(30))).extracting(ConsumerRecord::value)
                    .containsExactly("x|a1", "y|b1", "y|b1b", "x|a2", "y|b2");
        }
    }

    @Test
    void committedPositionBelowTheLogStartFailsClosedNamingTheLostRange() throws Exception {
        Outrun outrun = retentionOutrunsTheStage("retention-lost", false);
        assertThat(outrun.message()).contains("Retention deleted records this application had not consumed",
                "lost offset ranges={" + outrun.topic() + "-0=[3, 7]}");
    }

    /**
     * With the group's offsets deleted the stage cannot tell where it is on a channel it delivered
     * from (its frontier is derived from them, protocol.md §7.1): it stops at init (F30), before
     * the consumer could start at the log start and bridge over the records retention deleted.
     */
    @Test
    void deletedGroupOffsetsFailClosedAtInitBeforeAnythingIsBridgedOrDeliveredAgain() throws Exception {
        Outrun outrun = retentionOutrunsTheStage("retention-reset", true);
        assertThat(outrun.message()).contains("No committed consumer position for a channel this node delivered",
                "node=relay-task-0_0", "offsets.retention.minutes", "restore the group's offsets");
    }

    /** The source topic retention outran, and the error the restarted stage failed with. */
    private record Outrun(String topic, String message) {
    }

    /**
     * Delivers three records, stops, lets ten more arrive and retention delete the first five of
     * them, optionally deletes the group's committed offsets (so the consumer restarts at the log
     * start, and only the stage's own history reveals the gap), restarts and returns the error.
     */
    private Outrun retentionOutrunsTheStage(String name, boolean resetOffsets) throws Exception {
        String x = TestKafka.unique(name + "-x");
        String y = TestKafka.unique(name + "-y");
        String out = TestKafka.unique(name + "-out");
        for (String t : List.of(x, y, out)) {
            TestKafka.createTopic(t, 1);
        }
        Parsley app = Parsley.named(TestKafka.unique(name), relay(x, y, out, Duration.ofMinutes(10)));
        String message;
        try (KafkaProducer<String, String> plain = TestKafka.producer()) {
            try (CausalStreams streams = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir))) {
                streams.start();
                TestKafka.awaitRunning(streams);
                for (int i = 0; i < 3; i++) {
                    plain.send(new ProducerRecord<>(x, "k", "seen" + i)).get();
                }
                TestKafka.readCommitted(out, 3, Duration.ofSeconds(30));
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> committedOffset(app, x) == 3);
            }
            for (int i = 0; i < 10; i++) {
                plain.send(new ProducerRecord<>(x, "k", "unseen" + i)).get();
            }
            TestKafka.deleteRecordsBefore(x, 0, 8);
            if (resetOffsets) {
                Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
                    TestKafka.admin().deleteConsumerGroups(List.of(app.applicationId())).all()
                            .get(30, TimeUnit.SECONDS);
                    return true;
                });
            }

            try (CausalStreams restarted = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir))) {
                AtomicReference<Throwable> failure = TestKafka.captureFailure(restarted);
                restarted.start();
                Throwable thrown = TestKafka.awaitFailure(restarted, failure);
                message = TestKafka.causeOf(thrown, IllegalStateException.class).orElseThrow().getMessage();
            }
        }
        assertThat(TestKafka.readAll(out)).extracting(ConsumerRecord::value)
                .containsExactly("x|seen0", "x|seen1", "x|seen2");
        return new Outrun(x, message);
    }

    @Test
    void deletingRecordsTheStageHoldsIsNotMistakenForLoss() throws Exception {
        String x = TestKafka.unique("retention-held-x");
        String y = TestKafka.unique("retention-held-y");
        String out = TestKafka.unique("retention-held-out");
        for (String t : List.of(x, y, out)) {
            TestKafka.createTopic(t, 1);
        }
        Parsley app = Parsley.named(TestKafka.unique("retention-held"), relay(x, y, out, Duration.ofMinutes(10)));

        try (KafkaProducer<String, String> plain = TestKafka.producer();
                KafkaProducer<String, String> slow = TestKafka.transactionalProducer()) {
            CausalClock clock = new CausalClock(TestKafka.admin());
            try (CausalStreams streams = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir))) {
                streams.start();
                TestKafka.awaitRunning(streams);
                plain.send(new ProducerRecord<>(y, "k", "b0")).get();
                TestKafka.readCommitted(out, 1, Duration.ofSeconds(30));
                slow.beginTransaction();
                clock.recordProduced(slow.send(new ProducerRecord<>(x, "k", "a")).get());
                for (int i = 1; i <= 3; i++) {
                    send(plain, clock, y, "b" + i);
                }
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> streams.explainHolds().stream()
                        .anyMatch(h -> h.topic().equals(y) && h.queued() == 3));
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> committedOffset(app, y) == 4);
            }
            TestKafka.deleteRecordsBefore(y, 0, 4);

            try (CausalStreams restarted = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir))) {
                AtomicReference<Throwable> failure = TestKafka.captureFailure(restarted);
                restarted.start();
                TestKafka.awaitRunning(restarted);
                send(plain, clock, y, "b4");
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> failure.get() != null
                        || restarted.explainHolds().stream().anyMatch(h -> h.topic().equals(y) && h.queued() == 4));
                assertThat(failure.get()).as("held records deleted by retention are not lost").isNull();
                slow.commitTransaction();

                assertThat(TestKafka.readCommitted(out, 6, Duration.ofSeconds(30))).extracting(ConsumerRecord::value)
                        .containsExactly("y|b0", "x|a", "y|b1", "y|b2", "y|b3", "y|b4");
            }
        }
    }

    private static long committedOffset(Parsley app, String topic) throws Exception {
        TopicPartition tp = new TopicPartition(topic, 0);
        OffsetAndMetadata committed = TestKafka.admin().listConsumerGroupOffsets(app.applicationId())
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS).get(tp);
        return committed == null ? -1 : committed.offset();
    }

    private static void send(KafkaProducer<String, String> producer, CausalClock clock, String topic, String value)
            throws Exception {
        ProducerRecord<String, String> r = new ProducerRecord<>(topic, "k", value);
        clock.stamp(r.headers());
        clock.recordProduced(producer.send(r).get());
    }

    private static double offsetEntries(CausalStreams streams) {
        return TestKafka.vcMetric(streams, "stamp-offset-entries").orElse(-1);
    }

    private static Stage relay(String x, String y, String out, Duration truncationInterval) {
        Topic<String, String> log = Topic.of(out, Codec.utf8(), Codec.utf8());
        return Stage.named("relay")
                .on(Topic.of(x, Codec.utf8(), Codec.utf8()), m -> List.of(log.send(m.key(), "x|" + m.value())))
                .on(Topic.of(y, Codec.utf8(), Codec.utf8()), m -> List.of(log.send(m.key(), "y|" + m.value())))
                .into(log)
                .truncationInterval(truncationInterval)
                .build();
    }
}
