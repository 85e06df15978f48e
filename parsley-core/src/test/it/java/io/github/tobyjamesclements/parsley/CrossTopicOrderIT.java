package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A payment that claims its order becomes visible before the order (the order's transaction is
 * held open); the stage must deliver the order first, on every partition.
 */
class CrossTopicOrderIT {

    private static final int CUSTOMERS = 30;

    @TempDir
    Path stateDir;

    @Test
    void paymentVisibleBeforeItsOrderIsDeliveredAfterIt() throws Exception {
        String orders = TestKafka.unique("orders");
        String payments = TestKafka.unique("payments");
        String notifications = TestKafka.unique("notifications");
        TestKafka.createTopic(orders, 3);
        TestKafka.createTopic(payments, 3);
        TestKafka.createTopic(notifications, 3);
        Topic<String, String> o = Topic.of(orders, Codec.utf8(), Codec.utf8());
        Topic<String, String> p = Topic.of(payments, Codec.utf8(), Codec.utf8());
        Topic<String, String> n = Topic.of(notifications, Codec.utf8(), Codec.utf8());
        Stage notifier = Stage.named("notifier")
                .on(o, m -> List.of(n.send(m.key(), "order:" + m.value())))
                .on(p, m -> List.of(n.send(m.key(), "payment:" + m.value())))
                .into(n)
                .build();
        String app = TestKafka.unique("cross-topic");
        try (CausalStreams streams = Parsley.named(app, notifier).streams(TestKafka.streamsProps(app, stateDir));
                KafkaProducer<String, String> orderProducer = TestKafka.transactionalProducer();
                KafkaProducer<String, String> paymentProducer = TestKafka.producer()) {
            streams.start();
            TestKafka.awaitRunning(streams);

            CausalClock clock = new CausalClock(TestKafka.admin());
            orderProducer.beginTransaction();
            for (int c = 0; c < CUSTOMERS; c++) {
                RecordMetadata md = orderProducer.send(new ProducerRecord<>(orders, "c" + c, "o" + c)).get();
                clock.recordProduced(md);
                ProducerRecord<String, String> payment = new ProducerRecord<>(payments, "c" + c, "p" + c);
                clock.stamp(payment.headers());
                paymentProducer.send(payment).get();
            }

            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> streams.explainHolds().size() == 3);
            assertThat(streams.explainHolds()).allSatisfy(h -> {
                assertThat(h.topic()).isEqualTo(payments);
                assertThat(h.diagnosis()).isEqualTo(HeldRecord.Diagnosis.NOT_FETCHED);
                assertThat(h.unmetClaims()).extracting(HeldRecord.UnmetClaim::topic).containsOnly(orders);
            });
            assertThat(TestKafka.readAllBytes(notifications)).isEmpty();

            orderProducer.commitTransaction();

            List<ConsumerRecord<String, String>> out = TestKafka.readCommitted(notifications, 2 * CUSTOMERS,
                    Duration.ofSeconds(30));
            Map<String, List<String>> byCustomer = new HashMap<>();
            out.forEach(r -> byCustomer.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value()));
            assertThat(out).hasSize(2 * CUSTOMERS);
            for (int c = 0; c < CUSTOMERS; c++) {
                assertThat(byCustomer.get("c" + c)).as("customer c" + c).containsExactly("order:o" + c,
                        "payment:p" + c);
            }
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> streams.explainHolds().isEmpty());
        }
    }
}
