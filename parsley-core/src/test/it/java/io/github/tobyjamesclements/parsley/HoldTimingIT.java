package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hold ages on the real host, against the wall clock of this JVM, which the host shares: a hold
 * can be no older than the send of the held record and no younger than the moment the test first
 * saw it, and a hold restored by a restarted application can be no older than the restart. The
 * deterministic checks of short holds are in {@link HoldTimingTests}.
 */
class HoldTimingIT {

    @TempDir
    Path stateDir;

    @Test
    void holdAgesAreBoundedByWhenTheRecordWasSentAndRestoredHoldsStartAtTheRestore() throws Exception {
        String orders = TestKafka.unique("timed-orders");
        String payments = TestKafka.unique("timed-payments");
        String out = TestKafka.unique("timed-out");
        for (String t : List.of(orders, payments, out)) {
            TestKafka.createTopic(t, 1);
        }
        Topic<String, String> o = Topic.of(orders, Codec.utf8(), Codec.utf8());
        Topic<String, String> p = Topic.of(payments, Codec.utf8(), Codec.utf8());
        Topic<String, String> log = Topic.of(out, Codec.utf8(), Codec.utf8());
        Parsley app = Parsley.named(TestKafka.unique("timed"), Stage.named("notifier")
                .on(o, m -> List.of(log.send(m.key(), "order:" + m.value())))
                .on(p, m -> List.of(log.send(m.key(), "payment:" + m.value())))
                .into(log)
                .build());
        try (KafkaProducer<String, String> orderProducer = TestKafka.transactionalProducer();
                KafkaProducer<String, String> paymentProducer = TestKafka.producer()) {
            CausalStreams first = start(app);
            orderProducer.beginTransaction();
            CausalClock clock = new CausalClock(TestKafka.admin());
            clock.recordProduced(orderProducer.send(new ProducerRecord<>(orders, "c1", "o1")).get());
            ProducerRecord<String, String> payment = new ProducerRecord<>(payments, "c1", "p1");
            clock.stamp(payment.headers());
            long sent = System.currentTimeMillis();
            paymentProducer.send(payment).get();

            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(1))
                    .until(() -> first.explainHolds().size() == 1);
            long seen = System.currentTimeMillis();
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5))
                    .until(() -> first.explainHolds().get(0).heldFor().toMillis() >= 20);
            assertAgeBetween(first, seen, sent);
            first.close();

            long restarted = System.currentTimeMillis();
            try (CausalStreams second = start(app)) {
                Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(5))
                        .until(() -> second.explainHolds().size() == 1);
                assertThat(second.explainHolds().get(0).topic()).isEqualTo(payments);
                // Timed from the restore: no older than the restart, though the payment waited before it.
                assertAgeBetween(second, Long.MAX_VALUE, restarted);

                orderProducer.commitTransaction();
                assertThat(TestKafka.readCommitted(out, 2, Duration.ofSeconds(30)))
                        .extracting(ConsumerRecord::value).containsExactly("order:o1", "payment:p1");
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> second.explainHolds().isEmpty()
                        && TestKafka.vcMetric(second, "records-held-age-max-ms").orElse(-1) == 0.0);
            }
        }
    }

    private CausalStreams start(Parsley app) {
        CausalStreams streams = app.streams(TestKafka.streamsProps(app.applicationId(), stateDirOf(app)));
        streams.start();
        TestKafka.awaitRunning(streams);
        return streams;
    }

    /**
     * The one hold's age, from {@code explainHolds()} and from the age gauge, read between two
     * clock readings: at least the time since {@code heldBy} (the hold existed then; MAX_VALUE
     * for no lower bound), at most the time since {@code notBefore} (the hold cannot have started
     * earlier).
     */
    private static void assertAgeBetween(CausalStreams streams, long heldBy, long notBefore) {
        long before = System.currentTimeMillis();
        long heldFor = streams.explainHolds().get(0).heldFor().toMillis();
        double gauge = TestKafka.vcMetric(streams, "records-held-age-max-ms").orElseThrow();
        long after = System.currentTimeMillis();
        long atLeast = heldBy == Long.MAX_VALUE ? 0 : before - heldBy;
        assertThat(heldFor).as("heldFor").isBetween(atLeast, after - notBefore);
        assertThat(gauge).as("records-held-age-max-ms").isBetween((double) atLeast, (double) (after - notBefore));
    }

    private Path stateDirOf(Parsley app) {
        return stateDir.resolve(app.applicationId());
    }
}
