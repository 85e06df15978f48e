package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An idle stage commits nothing, as plain Kafka Streams does: every punctuation makes Kafka Streams
 * commit the task, under {@code exactly_once_v2} a transaction, so a punctuator firing while
 * nothing happens would cost the cluster a transaction per firing for ever. Transactions are
 * counted with the stream thread's {@code commit-total}, which counts commit rounds; one round is
 * one transaction under {@code exactly_once_v2}.
 *
 * <p>A stateful stage is in the application too: it sweeps its positions after its steps until a
 * sweep finds no step since the last, and then must be as quiet as the stateless one.
 *
 * <p>The position sweep that an idle stage stops must start again when a record is held: a
 * payment held on an order whose transaction then aborts is released only by the sweep, since the
 * abort brings no record, only a consumer position past the aborted order.
 */
class IdleCommitsIT {

    /** Long enough for several sweeps (500 ms) and commit intervals (100 ms) to pass. */
    private static final Duration IDLE_WINDOW = Duration.ofSeconds(3);

    @TempDir
    Path stateDir;

    @Test
    void anIdleStageCommitsNoTransactionAndAHeldRecordIsStillReleasedBySweeps() throws Exception {
        String orders = TestKafka.unique("idle-orders");
        String payments = TestKafka.unique("idle-payments");
        String out = TestKafka.unique("idle-out");
        for (String t : List.of(orders, payments, out)) {
            TestKafka.createTopic(t, 1);
        }
        Topic<String, String> o = Topic.of(orders, Codec.utf8(), Codec.utf8());
        Topic<String, String> p = Topic.of(payments, Codec.utf8(), Codec.utf8());
        Topic<String, String> log = Topic.of(out, Codec.utf8(), Codec.utf8());
        Parsley app = Parsley.named(TestKafka.unique("idle"), Stage.named("notifier")
                .on(o, m -> List.of(log.send(m.key(), "order:" + m.value())))
                .on(p, m -> List.of(log.send(m.key(), "payment:" + m.value())))
                .into(log)
                .build(),
                // a stateful stage sweeps after its steps until at rest (its state is read, §17.2): then no more
                Stage.named("balances").state(Codec.int64(), () -> 0L)
                        .on(p, (Long n, Message<String, String> m) -> Step.of(n + 1))
                        .into(log)
                        .build());
        try (CausalStreams streams = app.streams(TestKafka.streamsProps(app.applicationId(), stateDir));
                KafkaProducer<String, String> orderProducer = TestKafka.transactionalProducer();
                KafkaProducer<String, String> paymentProducer = TestKafka.producer()) {
            streams.start();
            TestKafka.awaitRunning(streams);
            CausalClock clock = new CausalClock(TestKafka.admin());
            for (int i = 0; i < 5; i++) {
                orderProducer.beginTransaction();
                clock.recordProduced(orderProducer.send(new ProducerRecord<>(orders, "c" + i, "o" + i)).get());
                orderProducer.commitTransaction();
                ProducerRecord<String, String> payment = new ProducerRecord<>(payments, "c" + i, "p" + i);
                clock.stamp(payment.headers());
                paymentProducer.send(payment).get();
            }
            assertThat(TestKafka.readCommitted(out, 10, Duration.ofSeconds(30))).hasSize(10);
            assertNoCommitsOnceSettled(streams);

            orderProducer.beginTransaction();
            clock.recordProduced(orderProducer.send(new ProducerRecord<>(orders, "c9", "o9")).get());
            ProducerRecord<String, String> payment = new ProducerRecord<>(payments, "c9", "p9");
            clock.stamp(payment.headers());
            paymentProducer.send(payment).get();
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5))
                    .until(() -> streams.explainHolds().size() == 1);
            orderProducer.abortTransaction();

            assertThat(TestKafka.readCommitted(out, 11, Duration.ofSeconds(30)))
                    .extracting(ConsumerRecord::value).contains("payment:p9").doesNotContain("order:o9");
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> streams.explainHolds().isEmpty());
            assertNoCommitsOnceSettled(streams);
        }
    }

    /**
     * Waits until the trailing commits of the last steps are over (the count stays still for a
     * window), then requires that it stays still for another whole window. A punctuator left
     * running while idle commits every sweep, so neither wait would ever end.
     */
    private static void assertNoCommitsOnceSettled(CausalStreams streams) {
        AtomicReference<Double> last = new AtomicReference<>(-1.0);
        Awaitility.await("commits settle").atMost(Duration.ofSeconds(30)).during(IDLE_WINDOW)
                .pollInterval(Duration.ofMillis(50)).until(() -> {
                    double now = commits(streams);
                    return now == last.getAndSet(now);
                });
        double settled = commits(streams);
        Awaitility.await("no commit while idle").atMost(IDLE_WINDOW.plusSeconds(1)).during(IDLE_WINDOW)
                .pollInterval(Duration.ofMillis(50)).until(() -> commits(streams) == settled);
        assertThat(settled).as("commits before idling").isPositive();
    }

    /** Commit rounds of this instance's stream threads so far. */
    static double commits(CausalStreams streams) {
        return streams.metrics().entrySet().stream()
                .filter(e -> e.getKey().group().equals("stream-thread-metrics")
                        && e.getKey().name().equals("commit-total"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }
}
