package io.github.tobyjamesclements.parsley.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalHeaders;
import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.CorruptClockException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.kafka.test.context.EmbeddedKafka;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code parsley.dead-letter-topic} through the starter on the in-JVM broker: the three kinds of
 * poison record (unreadable causal headers, a value its JSON codec refuses, a handler that throws)
 * go to the dead-letter topic, which the starter created, once each with the error headers; the
 * stages move on with their fold state and every other record in order; health stays UP and, like
 * {@code /actuator/parsley} and {@code parsley.records.dead.lettered}, shows the count and the last
 * error per stage.
 */
@SpringBootTest(classes = ShopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.application.name=shop-dl",
            "spring.kafka.streams.state-dir=${java.io.tmpdir}/parsley-shop-dl-${random.uuid}",
            "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
            "spring.kafka.streams.properties.commit.interval.ms=100",
            "spring.kafka.streams.replication-factor=1",
            "parsley.topics.create=true",
            "parsley.dead-letter-topic=" + DeadLetterApplicationIT.DEAD_LETTERS,
            "management.endpoints.web.exposure.include=health,parsley,metrics",
            "management.endpoint.health.show-details=always"})
@EmbeddedKafka(brokerProperties = {"transaction.state.log.replication.factor=1", "transaction.state.log.min.isr=1",
        "transaction.state.log.num.partitions=4", "offsets.topic.num.partitions=4",
        "group.initial.rebalance.delay.ms=0"})
class DeadLetterApplicationIT {

    static final String DEAD_LETTERS = "shop-dead-letters";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Value("${spring.embedded.kafka.brokers}")
    String brokers;

    @Autowired
    CausalStreams streams;

    @Test
    void poisonRecordsAreDeadLetteredOnceAndTheStagesMoveOn() throws Exception {
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
        try (KafkaProducer<String, String> producer = producer()) {
            send(producer, ShopApplication.ORDERS, "{\"orderId\":\"o1\",\"amount\":5}", null);
            send(producer, ShopApplication.ORDERS, "{\"orderId\":\"o2\",\"amount\":5}", new byte[] {0x7f, 0, 0});
            send(producer, ShopApplication.PAYMENTS, "not json", null);
            send(producer, ShopApplication.PAYMENTS, "{\"orderId\":\"refused\",\"amount\":1}", null);
            send(producer, ShopApplication.PAYMENTS, "{\"orderId\":\"o1\",\"amount\":5}", null);
            send(producer, ShopApplication.BALANCES + "-in", "{\"orderId\":\"o1\",\"amount\":5}", null);
            send(producer, ShopApplication.BALANCES + "-in", "{\"orderId\":", null);
            send(producer, ShopApplication.BALANCES + "-in", "{\"orderId\":\"o1\",\"amount\":7}", null);
        }

        List<ConsumerRecord<byte[], byte[]>> dead = readCommitted(DEAD_LETTERS, 4);
        assertThat(dead).as("two stages dead-letter into one topic: no order between them")
                .extracting(r -> source(r) + " " + utf8(r.value())).containsExactlyInAnyOrder(
                        ShopApplication.ORDERS + "@1 {\"orderId\":\"o2\",\"amount\":5}",
                        ShopApplication.PAYMENTS + "@0 not json",
                        ShopApplication.PAYMENTS + "@1 {\"orderId\":\"refused\",\"amount\":1}",
                        ShopApplication.BALANCES + "-in@1 {\"orderId\":");
        assertThat(dead).allSatisfy(r -> {
            assertThat(utf8(r.key())).isEqualTo("c1");
            assertThat(text(r.headers().lastHeader("trace"))).as("the producer's own header").isEqualTo("keep");
            assertThat(text(r.headers().lastHeader("__streams.errors.partition"))).isNotBlank();
            assertThat(text(r.headers().lastHeader("__streams.errors.stacktrace"))).contains("\tat ");
            byte[] clock = r.headers().lastHeader(CausalHeaders.CLOCK) == null ? null
                    : r.headers().lastHeader(CausalHeaders.CLOCK).value();
            assertThat(clock).as("never stamped: only the producer's own clock header, if any").satisfiesAnyOf(
                    c -> assertThat(c).isNull(), c -> assertThat(c).containsExactly(0x7f, 0, 0));
        });
        Map<String, ConsumerRecord<byte[], byte[]>> bySource = new HashMap<>();
        dead.forEach(r -> bySource.put(source(r), r));
        assertThat(text(bySource.get(ShopApplication.ORDERS + "@1").headers().lastHeader("__streams.errors.exception")))
                .isEqualTo(CorruptClockException.class.getName());
        ConsumerRecord<byte[], byte[]> refused = bySource.get(ShopApplication.PAYMENTS + "@1");
        assertThat(text(refused.headers().lastHeader("__streams.errors.exception")))
                .isEqualTo(IllegalArgumentException.class.getName());
        assertThat(text(refused.headers().lastHeader("__streams.errors.message")))
                .isEqualTo("payments for order 'refused' are refused");
        assertThat(values(readCommitted(ShopApplication.NOTIFICATIONS, 2))).containsExactly("order o1", "payment o1");
        assertThat(values(readCommitted(ShopApplication.BALANCES, 2))).as("the fold skipped the poison, state intact")
                .containsExactly("{\"paid\":5,\"payments\":1}", "{\"paid\":12,\"payments\":2}");
        assertThat(readCommitted(DEAD_LETTERS, 4)).as("exactly once").hasSize(4);

        JsonNode health = get("/actuator/health/parsley");
        assertThat(health.path("status").asString()).isEqualTo("UP");
        JsonNode deadLetters = health.path("details").path("deadLetters");
        assertThat(deadLetters.path("topic").asString()).isEqualTo(DEAD_LETTERS);
        assertThat(deadLetters.path("stages").path("notifier").path("count").asLong()).isEqualTo(3);
        JsonNode last = deadLetters.path("stages").path("balances").path("lastError");
        assertThat(last.path("topic").asString()).isEqualTo(ShopApplication.BALANCES + "-in");
        assertThat(last.path("offset").asLong()).isEqualTo(1);
        assertThat(last.path("exception").asString()).isNotBlank();
        assertThat(deadLetters.path("stages").path("balances").path("count").asLong()).isEqualTo(1);

        JsonNode endpoint = get("/actuator/parsley");
        assertThat(endpoint.path("deadLetterTopic").asString()).isEqualTo(DEAD_LETTERS);
        Map<String, Long> counts = new HashMap<>();
        endpoint.path("deadLetters").forEach(d -> counts.put(d.path("stage").asString(), d.path("count").asLong()));
        assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of("notifier", 3L, "balances", 1L));

        assertThat(meter("stage:notifier", "topic:" + ShopApplication.PAYMENTS)).isEqualTo(2.0);
        assertThat(meter("stage:notifier", "topic:" + ShopApplication.ORDERS)).isEqualTo(1.0);
        assertThat(meter("stage:balances", "topic:" + ShopApplication.BALANCES + "-in")).isEqualTo(1.0);
    }

    private double meter(String... tags) throws Exception {
        StringBuilder q = new StringBuilder("/actuator/metrics/parsley.records.dead.lettered?");
        for (String t : tags) {
            q.append("tag=").append(t).append('&');
        }
        return get(q.toString()).path("measurements").get(0).path("value").asDouble();
    }

    private static void send(KafkaProducer<String, String> producer, String topic, String value, byte[] clock)
            throws Exception {
        ProducerRecord<String, String> r = new ProducerRecord<>(topic, "c1", value);
        r.headers().add("trace", "keep".getBytes(StandardCharsets.UTF_8));
        if (clock != null) {
            r.headers().add(CausalHeaders.CLOCK, clock);
        }
        producer.send(r).get();
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    private KafkaProducer<String, String> producer() {
        Map<String, Object> p = new HashMap<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers));
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    /** Waits for at least {@code count} committed records, then reads to the end: all of them, in order. */
    private List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic, int count) {
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> readAll(topic).size() >= count);
        return readAll(topic);
    }

    private List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                brokers, ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> tps = c.partitionsFor(topic).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> ends = c.endOffsets(tps);
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(1)).until(() -> {
                c.poll(Duration.ofMillis(100)).forEach(out::add);
                return tps.stream().allMatch(tp -> c.position(tp) >= ends.get(tp));
            });
        }
        return out;
    }

    private static List<String> values(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> utf8(r.value())).toList();
    }

    /** The source coordinate a dead letter names: {@code topic@offset}. */
    private static String source(ConsumerRecord<byte[], byte[]> r) {
        return text(r.headers().lastHeader("__streams.errors.topic")) + "@"
                + text(r.headers().lastHeader("__streams.errors.offset"));
    }

    private static String utf8(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    private static String text(Header h) {
        return h == null ? null : utf8(h.value());
    }
}
