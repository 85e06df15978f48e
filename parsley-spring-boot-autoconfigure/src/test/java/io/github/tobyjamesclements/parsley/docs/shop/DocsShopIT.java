package io.github.tobyjamesclements.parsley.docs.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalClock;
import io.github.tobyjamesclements.parsley.CausalStreams;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.test.context.EmbeddedKafka;

/**
 * The Spring example of docs/spring-boot.md, as copied (the docs' snippets are these classes), runs
 * against the in-JVM broker with the properties the docs give and delivers a payment after the
 * order it was stamped after, even while that order is still uncommitted; the balance keeper, a
 * second stage on {@code payments}, applies the payment without waiting for the order.
 */
@SpringBootTest(classes = ShopApplication.class, properties = {
    "spring.application.name=shop",
    "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
    "spring.kafka.streams.state-dir=${java.io.tmpdir}/parsley-docs-shop-${random.uuid}",
    "spring.kafka.streams.replication-factor=1",
    "spring.kafka.streams.properties.commit.interval.ms=100",
    "parsley.topics.create=true"})
@EmbeddedKafka(brokerProperties = {"transaction.state.log.replication.factor=1", "transaction.state.log.min.isr=1",
    "transaction.state.log.num.partitions=4", "offsets.topic.num.partitions=4",
    "group.initial.rebalance.delay.ms=0"})
class DocsShopIT {

    @Value("${spring.embedded.kafka.brokers}")
    String brokers;

    @Autowired
    CausalStreams streams;

    @Autowired
    BalanceController controller;

    @Test
    void paymentIsNotifiedAfterItsOrderEvenWhenTheOrderCommitsLater() throws Exception {
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", brokers));
                KafkaProducer<String, String> orders = producer("docs-shop-orders");
                KafkaProducer<String, String> payments = producer(null)) {
            CausalClock clock = new CausalClock(admin);
            orders.initTransactions();
            orders.beginTransaction();
            clock.recordProduced(orders.send(new ProducerRecord<>("orders", "c1",
                    "{\"orderId\":\"o1\",\"amount\":5}")).get());
            ProducerRecord<String, String> payment = new ProducerRecord<>("payments", "c1",
                    "{\"orderId\":\"o1\",\"amount\":5}");
            clock.stamp(payment.headers());
            payments.send(payment).get();

            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> streams.explainHolds().stream()
                    .anyMatch(h -> h.topic().equals("payments")));
            assertThat(notifications()).as("nothing notified while the order is uncommitted").isEmpty();
            orders.commitTransaction();
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> notifications().size() >= 2);
        assertThat(notifications()).containsExactly("order o1", "payment o1");
        assertThat(committed("balances")).as("the balance keeper reads payments too (fan-out), without waiting for"
                + " orders it does not consume").hasSize(1).first().asString().contains("\"paid\":5");
    }

    /** The docs' own controller reads a balance with the token of the payment it must reflect. */
    @Test
    void theDocsControllerReadsTheBalanceAfterThePayment() throws Exception {
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
        CausalClock clock;
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", brokers));
                KafkaProducer<String, String> payments = producer(null)) {
            clock = new CausalClock(admin);
            ProducerRecord<String, String> payment = new ProducerRecord<>("payments", "c2",
                    "{\"orderId\":\"o2\",\"amount\":9}");
            clock.stamp(payment.headers());
            clock.recordProduced(payments.send(payment).get());
        }
        ResponseEntity<Balance> read = controller.balance("c2", clock.token().toString());
        assertThat(read.getStatusCode().value()).isEqualTo(200);
        assertThat(read.getBody()).isEqualTo(new Balance(9, 1));
        assertThat(read.getHeaders().getFirst("Parsley-Token")).isNotBlank();
        assertThat(controller.balance("nobody", null).getStatusCode().value()).isEqualTo(404);
    }

    private KafkaProducer<String, String> producer(String transactionalId) {
        Map<String, Object> p = new HashMap<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers));
        if (transactionalId != null) {
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    private List<String> notifications() {
        return committed("notifications");
    }

    private List<String> committed(String topic) {
        List<String> out = new ArrayList<>();
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                brokers, ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> tps = c.partitionsFor(topic).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                c.poll(Duration.ofMillis(100)).forEach(r -> out.add(r.value()));
                return tps.stream().allMatch(tp -> c.position(tp) >= end.get(tp));
            });
        }
        return out;
    }
}
