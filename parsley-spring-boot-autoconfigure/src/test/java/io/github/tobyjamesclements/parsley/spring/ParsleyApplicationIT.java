package io.github.tobyjamesclements.parsley.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalClock;
import io.github.tobyjamesclements.parsley.CausalHeaders;
import io.github.tobyjamesclements.parsley.CausalStreams;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.kafka.test.context.EmbeddedKafka;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The starter end to end on the in-JVM KRaft broker: annotated beans run as causal stages (the
 * notifier's order topic named by the property {@code shop.topics.orders}), and Actuator shows
 * health, metrics and holds. Methods run in order: the last one forces a fatal error.
 */
@SpringBootTest(classes = ShopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.application.name=shop",
            "shop.topics.orders=" + ShopApplication.ORDERS,
            "spring.kafka.streams.state-dir=${java.io.tmpdir}/parsley-shop-${random.uuid}",
            "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
            "spring.kafka.streams.properties.commit.interval.ms=100",
            "spring.kafka.streams.replication-factor=1",
            "parsley.topics.create=true",
            "parsley.topics.partitions=2",
            "parsley.health.hold-age-threshold=1s",
            "management.endpoints.web.exposure.include=health,parsley,metrics",
            "management.endpoint.health.show-details=always"})
@EmbeddedKafka(brokerProperties = {"transaction.state.log.replication.factor=1", "transaction.state.log.min.isr=1",
        "transaction.state.log.num.partitions=4", "offsets.topic.num.partitions=4",
        "group.initial.rebalance.delay.ms=0"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ParsleyApplicationIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Value("${spring.embedded.kafka.brokers}")
    String brokers;

    @Autowired
    CausalStreams streams;

    @Test
    @Order(1)
    void recordsFlowInCausalOrderAndHealthIsUp() throws Exception {
        awaitRunning();
        try (KafkaProducer<String, String> producer = producer(null)) {
            producer.send(new ProducerRecord<>(ShopApplication.ORDERS, "c1", "{\"orderId\":\"o1\",\"amount\":5}")).get();
            producer.send(new ProducerRecord<>(ShopApplication.PAYMENTS, "c1", "{\"orderId\":\"o1\",\"amount\":5}"))
                    .get();
        }
        assertThat(values(read(ShopApplication.NOTIFICATIONS, 2))).containsExactly("order o1", "payment o1");

        JsonNode health = get("/actuator/health/parsley");
        assertThat(health.path("status").asString()).isEqualTo("UP");
        assertThat(health.path("details").path("state").asString()).isEqualTo("RUNNING");
        assertThat(health.path("details").path("applicationId").asString()).isEqualTo("shop");
        assertThat(health.path("details").path("guarantee").asString()).isEqualTo("exactly_once_v2");
        assertThat(health.path("details").path("stages").toString()).contains("notifier", "balances");
    }

    @Test
    @Order(2)
    void heldRecordIsExplainedByTheEndpointAndHealthOnceOld() throws Exception {
        CausalClock clock;
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", brokers));
                KafkaProducer<String, String> orders = producer("shop-orders-tx");
                KafkaProducer<String, String> payments = producer(null)) {
            clock = new CausalClock(admin);
            orders.initTransactions();
            orders.beginTransaction();
            clock.recordProduced(orders.send(new ProducerRecord<>(ShopApplication.ORDERS, "c2",
                    "{\"orderId\":\"o2\",\"amount\":7}")).get());
            ProducerRecord<String, String> payment = new ProducerRecord<>(ShopApplication.PAYMENTS, "c2",
                    "{\"orderId\":\"o2\",\"amount\":7}");
            clock.stamp(payment.headers());
            payments.send(payment).get();

            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> get("/actuator/parsley").path("holds")
                    .size() == 1);
            JsonNode hold = get("/actuator/parsley").path("holds").get(0);
            assertThat(hold.path("stage").asString()).isEqualTo("notifier");
            assertThat(hold.path("topic").asString()).isEqualTo(ShopApplication.PAYMENTS);
            assertThat(hold.path("diagnosis").asString()).isEqualTo("vc-hold-not-fetched");
            assertThat(hold.path("unmetClaims").get(0).path("topic").asString()).isEqualTo(ShopApplication.ORDERS);
            assertThat(hold.path("unmetClaims").get(0).path("diagnosis").asString()).isEqualTo("vc-hold-not-fetched");
            assertThat(get("/actuator/parsley").path("stages").toString()).contains("\"logic\":\"fold\"");

            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> get("/actuator/health/parsley")
                    .path("details").path("holds").path("stalled").asBoolean());
            JsonNode holds = get("/actuator/health/parsley").path("details").path("holds");
            assertThat(holds.path("count").asInt()).isEqualTo(1);
            assertThat(holds.path("diagnosis").asString()).isEqualTo("vc-hold-not-fetched");
            assertThat(holds.path("oldestAgeMs").asLong()).isGreaterThan(1000);

            orders.commitTransaction();
        }
        List<String> after = values(read(ShopApplication.NOTIFICATIONS, 4));
        assertThat(after.subList(2, 4)).containsExactly("order o2", "payment o2");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> streams.explainHolds().isEmpty());
    }

    @Test
    @Order(3)
    void parsleyMetersAreListedAndMove() throws Exception {
        assertThat(get("/actuator/metrics").path("names").toString()).contains("parsley.records.delivered",
                "parsley.records.held", "parsley.records.held.age.max", "kafka.stream.alive.stream.threads");
        double before = deliveredByNotifier();
        try (KafkaProducer<String, String> producer = producer(null)) {
            producer.send(new ProducerRecord<>(ShopApplication.ORDERS, "c3", "{\"orderId\":\"o3\",\"amount\":1}")).get();
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> deliveredByNotifier() > before);
    }

    @Test
    @Order(4)
    void fatalErrorTurnsHealthDown() throws Exception {
        try (KafkaProducer<String, String> producer = producer(null)) {
            ProducerRecord<String, String> corrupt = new ProducerRecord<>(ShopApplication.ORDERS, "c4", "{}");
            corrupt.headers().add(CausalHeaders.CLOCK, new byte[] {0x7f});
            producer.send(corrupt).get();
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> "DOWN".equals(
                get("/actuator/health/parsley").path("status").asString()));
        JsonNode details = get("/actuator/health/parsley").path("details");
        assertThat(details.path("lastError").asString()).contains("CorruptClockException");
    }

    private double deliveredByNotifier() throws Exception {
        JsonNode m = get("/actuator/metrics/parsley.records.delivered?tag=stage:notifier");
        return m.path("measurements").get(0).path("value").asDouble();
    }

    private void awaitRunning() {
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    private KafkaProducer<String, String> producer(String transactionalId) {
        Map<String, Object> p = new java.util.HashMap<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers));
        if (transactionalId != null) {
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    private List<ConsumerRecord<String, String>> read(String topic, int count) {
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                brokers, ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> tps = c.partitionsFor(topic).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                c.poll(Duration.ofMillis(100)).forEach(out::add);
                return out.size() >= count;
            });
        }
        return out;
    }

    private static List<String> values(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).toList();
    }
}
