package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalClock;
import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.spring.lifecycle.ParsleyLifecycle;
import java.nio.file.Path;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Graceful shutdown of a Parsley application ({@link ParsleyLifecycle}) on the in-JVM broker:
 * closing the context while a record is held loses nothing, and a restart with the same state
 * directory and application id delivers the held record after its cause, exactly once.
 */
class ParsleyLifecycleIT {

    private static EmbeddedKafkaKraftBroker broker;

    @TempDir
    static Path stateDir;

    @BeforeAll
    static void startBroker() {
        broker = EosBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.destroy();
    }

    @Test
    void heldRecordSurvivesShutdownAndIsDeliveredAfterItsCauseOnRestart() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.getBrokersAsString()));
                KafkaProducer<String, String> orders = producer("lifecycle-orders");
                KafkaProducer<String, String> payments = producer(null);
                KafkaConsumer<String, String> notifications = notificationsConsumer()) {
            orders.initTransactions();
            CausalStreams firstStreams;
            try (ConfigurableApplicationContext first = start()) {
                firstStreams = first.getBean(CausalStreams.class);
                awaitRunning(firstStreams);
                CausalClock clock = new CausalClock(admin);
                orders.beginTransaction();
                clock.recordProduced(orders.send(new ProducerRecord<>("orders", "c1", "o1")).get());
                ProducerRecord<String, String> payment = new ProducerRecord<>("payments", "c1", "p1");
                clock.stamp(payment.headers());
                payments.send(payment).get();
                Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> firstStreams.explainHolds().size() == 1);
                assertThat(firstStreams.explainHolds().get(0).topic()).isEqualTo("payments");
            }
            assertThat(firstStreams.state()).isEqualTo(KafkaStreams.State.NOT_RUNNING);
            assertThat(poll(notifications, Duration.ofSeconds(2))).isEmpty();

            orders.commitTransaction();
            try (ConfigurableApplicationContext second = start()) {
                List<String> delivered = new ArrayList<>();
                Awaitility.await().atMost(Duration.ofSeconds(90)).until(() -> {
                    delivered.addAll(poll(notifications, Duration.ofMillis(200)));
                    return delivered.size() >= 2;
                });
                assertThat(delivered).containsExactly("order o1", "payment p1");
                Awaitility.await("each notification arrives exactly once").during(Duration.ofSeconds(3))
                        .atMost(Duration.ofSeconds(10)).until(() -> {
                            delivered.addAll(poll(notifications, Duration.ofMillis(200)));
                            return delivered.size() == 2;
                        });
                assertThat(second.getBean(CausalStreams.class).explainHolds()).isEmpty();
            }
        }
    }

    private static ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(LifecycleApplication.class).web(WebApplicationType.NONE)
                .properties("spring.application.name=lifecycle",
                        "spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                        "spring.kafka.streams.state-dir=" + stateDir,
                        "spring.kafka.streams.properties.commit.interval.ms=100",
                        "spring.kafka.streams.properties.session.timeout.ms=6000",
                        "spring.kafka.streams.properties.heartbeat.interval.ms=1000", "parsley.close-timeout=20s")
                .run();
    }

    private static void awaitRunning(CausalStreams streams) {
        Awaitility.await().atMost(Duration.ofSeconds(90)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
    }

    private static KafkaProducer<String, String> producer(String transactionalId) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString());
        if (transactionalId != null) {
            config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
            config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 300_000);
        }
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    private static KafkaConsumer<String, String> notificationsConsumer() {
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(),
                new StringDeserializer());
        TopicPartition partition = new TopicPartition("notifications", 0);
        consumer.assign(List.of(partition));
        consumer.seekToBeginning(List.of(partition));
        return consumer;
    }

    private static List<String> poll(KafkaConsumer<String, String> consumer, Duration timeout) {
        List<String> values = new ArrayList<>();
        consumer.poll(timeout).forEach(r -> values.add(r.value()));
        return values;
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import({TestShop.Topics.class, TestShop.Notifier.class, TestShop.Totals.class})
    static class LifecycleApplication {
    }
}
