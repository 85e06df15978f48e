package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads of a fold's state by key through a real broker (protocol.md §17): a read with a token
 * waits until the owner's committed state has delivered what the token claims, and a read never
 * returns a value its task wrote but has not committed.
 *
 * <p>A step's write is held uncommitted deterministically: the delivery observer of the second
 * payment blocks the stream thread after the step wrote its state and before any commit, since a
 * stream thread commits only between steps.
 */
class StateReadIT {

    @TempDir
    Path stateDir;

    @Test
    void aReadWaitsForItsTokenAndNeverReturnsUncommittedState() throws Exception {
        String payments = TestKafka.unique("read-payments");
        String out = TestKafka.unique("read-out");
        TestKafka.createTopic(payments, 2);
        TestKafka.createTopic(out, 2);
        Topic<String, String> p = Topic.of(payments, Codec.utf8(), Codec.utf8());
        Topic<String, String> log = Topic.of(out, Codec.utf8(), Codec.utf8());
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Parsley app = Parsley.named(TestKafka.unique("read"),
                Stage.named("balances").state(Codec.int64(), () -> 0L)
                        .on(p, (Long total, Message<String, String> m) -> Step.of(total + Long.parseLong(m.value())))
                        .into(log).build(),
                Stage.named("echo").on(log, m -> List.of()).build())
                .withDeliveryObserver(d -> new DeliveryObserver.Scope() {
                    @Override
                    public void close() {
                        if (d.stage().equals("balances") && d.offset() == 1) {
                            blocked.countDown();
                            await(release);
                        }
                    }
                });
        try (CausalStreams streams = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir));
                KafkaProducer<String, String> producer = TestKafka.producer()) {
            streams.start();
            TestKafka.awaitRunning(streams);
            RecordMetadata firstSent = producer.send(new ProducerRecord<>(payments, "c1", "10")).get();
            CausalToken first = tokenOf(firstSent);

            StateRead<Long> afterFirst = streams.read("balances", "c1", first, Duration.ofSeconds(30));
            assertThat(afterFirst).isInstanceOfSatisfying(StateRead.Found.class, f -> {
                assertThat(f.value()).isEqualTo(10L);
                assertThat(f.token().includes(first)).as("the answer's token includes the read's").isTrue();
            });

            RecordMetadata secondSent = producer.send(new ProducerRecord<>(payments, "c1", "5")).get();
            CausalToken second = tokenOf(secondSent);
            assertThat(blocked.await(30, TimeUnit.SECONDS)).as("the second payment's step ran").isTrue();
            // its state, 15, is in the store now, uncommitted
            assertThat(streams.<Long>read("balances", "c1")).isInstanceOfSatisfying(StateRead.Found.class,
                    f -> assertThat(f.value()).as("the committed value, not the step's").isEqualTo(10L));
            StateRead<Long> early = streams.read("balances", "c1", second, Duration.ofMillis(300));
            assertThat(early).isInstanceOf(StateRead.NotReady.class);
            StateRead.NotReady<Long> behind = (StateRead.NotReady<Long>) early;
            assertThat(behind.reason()).isEqualTo(StateRead.Reason.BEHIND);
            assertThat(behind.unmet()).singleElement().satisfies(u -> {
                assertThat(u.topic()).isEqualTo(payments);
                assertThat(u.partition()).isEqualTo(secondSent.partition());
                assertThat(u.claimed()).isEqualTo(1L);
            });
            assertThat(behind.detail()).contains(payments + "-" + secondSent.partition() + " offset 1");

            release.countDown();
            assertThat(streams.<Long>read("balances", "c1", second, Duration.ofSeconds(30)))
                    .isInstanceOfSatisfying(StateRead.Found.class, f -> assertThat(f.value()).isEqualTo(15L));
            assertThat(streams.<Long>read("balances", "nobody", second, Duration.ofSeconds(30)))
                    .isInstanceOf(StateRead.Absent.class);
            assertThatThrownBy(() -> streams.read("ledger", "c1")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("No stage named 'ledger'").hasMessageContaining("balances");
            assertThatThrownBy(() -> streams.read("echo", "c1")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Stage 'echo' keeps no state");
        } finally {
            release.countDown();
        }
    }

    /**
     * A whole-topic claim that no sender mark meets is met once the state's frontier passes the
     * partition's end offset, read when the read starts (§17.2). After a transactional write that end
     * is past the transaction's commit marker, which only a consumer position proves: a stage at rest
     * must still sweep its positions once more, or such a read waits for the next record.
     */
    @Test
    void aClaimMetOnlyByTheEndOffsetIsAnsweredAtRestAfterATransaction() throws Exception {
        String payments = TestKafka.unique("rest-payments");
        String out = TestKafka.unique("rest-out");
        TestKafka.createTopic(payments, 1);
        TestKafka.createTopic(out, 1);
        Topic<String, String> p = Topic.of(payments, Codec.utf8(), Codec.utf8());
        Parsley app = Parsley.named(TestKafka.unique("rest"), Stage.named("balances").state(Codec.int64(), () -> 0L)
                .on(p, (Long total, Message<String, String> m) -> Step.of(total + Long.parseLong(m.value())))
                .into(Topic.of(out, Codec.utf8(), Codec.utf8())).build());
        try (CausalStreams streams = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir));
                KafkaProducer<String, String> producer = TestKafka.transactionalProducer()) {
            streams.start();
            TestKafka.awaitRunning(streams);
            producer.beginTransaction();
            RecordMetadata sent = producer.send(new ProducerRecord<>(payments, "c1", "7")).get();
            producer.commitTransaction();
            assertThat(streams.<Long>read("balances", "c1", tokenOf(sent), Duration.ofSeconds(30)))
                    .isInstanceOf(StateRead.Found.class);
            UUID topicId = CausalClock.describe(TestKafka.admin(), payments);
            CausalToken unseenSender = CausalToken.of(List.of(),
                    List.of(new CausalToken.SequenceClaim(topicId, -1, UUID.randomUUID(), 0)));

            assertThat(streams.<Long>read("balances", "c1", unseenSender, Duration.ofSeconds(10)))
                    .as("answered once the frontier passed the commit marker, with no record after it")
                    .isInstanceOfSatisfying(StateRead.Found.class, f -> assertThat(f.value()).isEqualTo(7L));
        }
    }

    /** The token of an acknowledged send, as a client that made it holds it. */
    private static CausalToken tokenOf(RecordMetadata sent) {
        CausalClock clock = new CausalClock(TestKafka.admin());
        clock.recordProduced(sent);
        return clock.token();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
