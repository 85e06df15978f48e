package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operations runbook for a poison record without a dead-letter topic (docs/operations.md, "A
 * poison record"), followed to the letter: the stage stops on the record; the operator takes the
 * reset command from the error message, checks the group's committed offset when the message asks
 * to, waits for the group to be empty, moves the group past the record (here with the Admin API
 * call the command makes) and restarts on the same state directory. The fold state survives and
 * the stage moves on; done once for an unreadable clock and once for a fold that throws, the
 * second time after a plain restart that lets the message prove the reset exact.
 */
class PoisonRecordRunbookIT {

    private static final Pattern COMMAND = Pattern.compile(
            "kafka-consumer-groups\\.sh --bootstrap-server <brokers> --reset-offsets --group (\\S+) --topic (\\S+):(\\d+)"
                    + " --to-offset (\\d+) --execute, (exact here|but only if the group's committed offset on \\S+ is"
                    + " (\\d+))");

    @TempDir
    Path stateDir;

    @Test
    void resettingTheGroupPastThePoisonRecordKeepsTheFoldStateAndMovesOn() throws Exception {
        String payments = TestKafka.unique("rb-payments");
        String balances = TestKafka.unique("rb-balances");
        TestKafka.createTopic(payments, 1);
        TestKafka.createTopic(balances, 1);
        Topic<String, String> tp = Topic.of(payments, Codec.utf8(), Codec.utf8());
        Topic<String, Long> tb = Topic.of(balances, Codec.utf8(), Codec.int64());
        Stage ledger = Stage.named("ledger").state(Codec.int64(), () -> 0L)
                .on(tp, (Long total, Message<String, String> m) -> {
                    long amount = Long.parseLong(m.value());
                    if (amount == 13) {
                        throw new IllegalStateException("unlucky amount");
                    }
                    return Step.of(total + amount, tb.send(m.key(), total + amount));
                })
                .into(tb).build();
        Parsley app = Parsley.named(TestKafka.unique("rb"), ledger);

        try (KafkaProducer<String, String> producer = TestKafka.producer()) {
            producer.send(new ProducerRecord<>(payments, "k", "5")).get();
            producer.send(new ProducerRecord<>(payments, "k", "7")).get();
            ProducerRecord<String, String> unreadable = new ProducerRecord<>(payments, "k", "100");
            unreadable.headers().add(CausalHeaders.CLOCK, new byte[] {0x7f, 0, 0});
            String message = runUntilPoison(app, CorruptClockException.class, balances, 2, () -> {
                producer.send(unreadable).get();
                producer.send(new ProducerRecord<>(payments, "k", "10")).get();
            });
            followRunbook(message, app.applicationId(), payments, 2, false);

            message = runUntilPoison(app, PoisonRecordException.class, balances, 3, () -> {
                producer.send(new ProducerRecord<>(payments, "k", "13")).get();
                producer.send(new ProducerRecord<>(payments, "k", "20")).get();
            });
            assertThat(COMMAND.matcher(message).results().findFirst().orElseThrow().group(5))
                    .as("10 was processed before 13 by this task").startsWith("but only if");
            message = runUntilPoison(app, PoisonRecordException.class, balances, 3, () -> { });
            followRunbook(message, app.applicationId(), payments, 4, true);

            try (CausalStreams last = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir))) {
                last.start();
                TestKafka.awaitRunning(last);
                TestKafka.readCommitted(balances, 4, Duration.ofSeconds(60));
            }
        }
        LongDeserializer longs = new LongDeserializer();
        assertThat(TestKafka.readAllBytes(balances)).extracting(r -> longs.deserialize(balances, r.value()))
                .as("5 and 7, the unreadable 100 skipped, 10 on top of 12, the throwing 13 skipped, 20 on top of 22")
                .containsExactly(5L, 12L, 22L, 42L);
    }

    /** What a test does once the stage is running and its committed outputs are in. */
    @FunctionalInterface
    private interface Then {
        void run() throws Exception;
    }

    /**
     * Starts the application on the state directory, waits until {@code outputs} balances are
     * committed (so everything before the poison is), runs {@code then}, and waits for the poison
     * record to stop it; returns the message of the {@code kind} in the failure.
     */
    private String runUntilPoison(Parsley app, Class<? extends Throwable> kind, String balances, int outputs, Then then)
            throws Exception {
        try (CausalStreams streams = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir))) {
            AtomicReference<Throwable> failure = TestKafka.captureFailure(streams);
            streams.start();
            TestKafka.readCommitted(balances, outputs, Duration.ofSeconds(60));
            then.run();
            Throwable thrown = TestKafka.awaitFailure(streams, failure);
            String message = TestKafka.causeOf(thrown, kind).orElseThrow(() -> new AssertionError(
                    "expected a " + kind.getSimpleName() + " in " + thrown, thrown)).getMessage();
            assertThat(message).contains("set a dead-letter topic (parsley.dead-letter-topic, or"
                    + " Parsley.deadLetterTopic) and restart", "keeping the state directory and the changelogs");
            return message;
        }
    }

    /**
     * The runbook: the command names this group, the record's partition and the offset after it;
     * unless the message says the reset is exact, the group's committed offset must be the
     * record's; the group must be empty before a reset is accepted, so it is retried until the
     * stopped member's session has expired; the next start reuses the same state directory.
     */
    private static void followRunbook(String message, String group, String topic, long poisonOffset, boolean exact) {
        Matcher m = COMMAND.matcher(message);
        assertThat(m.find()).as("the reset command in: %s", message).isTrue();
        assertThat(List.of(m.group(1), m.group(2), m.group(3))).containsExactly(group, topic, "0");
        assertThat(Long.parseLong(m.group(4))).isEqualTo(poisonOffset + 1);
        TopicPartition tp = new TopicPartition(topic, 0);
        if (exact) {
            assertThat(m.group(5)).isEqualTo("exact here");
        } else {
            assertThat(Long.parseLong(m.group(6))).isEqualTo(poisonOffset);
            assertThat(committedOffset(group, tp)).as("kafka-consumer-groups.sh --describe").isEqualTo(poisonOffset);
        }
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .untilAsserted(() -> TestKafka.admin().alterConsumerGroupOffsets(group,
                        Map.of(tp, new OffsetAndMetadata(poisonOffset + 1))).all().get(10, TimeUnit.SECONDS));
        assertThat(committedOffset(group, tp)).isEqualTo(poisonOffset + 1);
    }

    private static long committedOffset(String group, TopicPartition tp) {
        try {
            return TestKafka.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                    .get(10, TimeUnit.SECONDS).get(tp).offset();
        } catch (Exception e) {
            throw new IllegalStateException("Cannot list the offsets of group " + group + " on " + tp, e);
        }
    }
}
