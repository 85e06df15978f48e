package io.github.tobyjamesclements.parsley.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyHealthIndicator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The starter against a real Apache Kafka broker in a container, connected through Boot's
 * {@code @ServiceConnection}: records flow in causal order and the {@code parsley} health is UP.
 * Skipped where Docker is not available.
 */
@SpringBootTest(classes = ShopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {
            "spring.application.name=shop-container",
            "spring.kafka.streams.replication-factor=1",
            "spring.kafka.streams.state-dir=target/kafka-streams-container",
            "spring.kafka.streams.properties.commit.interval.ms=100",
            "parsley.topics.create=true",
            "parsley.topics.partitions=2"})
@Testcontainers(disabledWithoutDocker = true)
class ParsleyContainerIT {

    @Container
    @ServiceConnection
    static final KafkaContainer kafka = new KafkaContainer("apache/kafka-native:4.1.2");

    @Autowired
    private CausalStreams streams;

    @Autowired
    private ParsleyHealthIndicator health;

    @Test
    void recordsFlowInCausalOrderAndHealthIsUp() throws Exception {
        Awaitility.await().atMost(Duration.ofSeconds(90)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.getBootstrapServers()), new StringSerializer(),
                new StringSerializer())) {
            String json = "{\"orderId\":\"o1\",\"amount\":5}";
            producer.send(new ProducerRecord<>(ShopApplication.ORDERS, "c1", json)).get();
            producer.send(new ProducerRecord<>(ShopApplication.PAYMENTS, "c1", json)).get();
        }
        assertThat(readNotifications(2)).containsExactly("order o1", "payment o1");
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
    }

    private List<String> readNotifications(int count) {
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.getBootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(ShopApplication.NOTIFICATIONS).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
                return values.size() >= count;
            });
        }
        return values;
    }
}
