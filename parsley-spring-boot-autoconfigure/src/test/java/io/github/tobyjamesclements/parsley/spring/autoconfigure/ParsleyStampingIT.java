package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalHeaders;
import io.github.tobyjamesclements.parsley.CausalStreams;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
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
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * {@code parsley.producer.stamp=true} on the in-JVM broker: an order sent with Boot's
 * {@link KafkaTemplate} in a transaction held open, then a payment sent with the same template in
 * its own transaction; the application's notifier delivers the payment only after the order, though
 * the payment is visible first. Without the property nothing is held and the payment is delivered first.
 */
class ParsleyStampingIT {

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
    @SuppressWarnings("unchecked")
    void kafkaTemplateSendsAreStampedSoThePaymentWaitsForItsOrder() throws Exception {
        try (ConfigurableApplicationContext context = start();
                KafkaConsumer<String, String> notifications = consumer("notifications")) {
            CausalStreams streams = context.getBean(CausalStreams.class);
            Awaitility.await().atMost(Duration.ofSeconds(90)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
            KafkaTemplate<String, String> template = context.getBean(KafkaTemplate.class);

            template.executeInTransaction(orders -> {
                orders.send("orders", "c1", "o1").join();
                CompletableFuture.runAsync(() -> template.executeInTransaction(
                        payments -> payments.send("payments", "c1", "p1").join())).join();
                Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> streams.explainHolds().size() == 1);
                assertThat(streams.explainHolds().get(0).topic()).isEqualTo("payments");
                assertThat(poll(notifications, Duration.ofSeconds(1))).isEmpty();
                return null;
            });

            List<String> delivered = new ArrayList<>();
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                delivered.addAll(poll(notifications, Duration.ofMillis(200)));
                return delivered.size() >= 2;
            });
            assertThat(delivered).containsExactly("order o1", "payment p1");
        }
        try (KafkaConsumer<String, String> payments = consumer("payments")) {
            ConsumerRecord<String, String> payment = payments.poll(Duration.ofSeconds(10)).iterator().next();
            assertThat(payment.headers().lastHeader(CausalHeaders.CLOCK)).isNotNull();
            assertThat(CausalHeaders.sender(payment.headers())).as("a plain producer's stamp is untagged").isEmpty();
        }
    }

    private static ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(StampingApplication.class).web(WebApplicationType.NONE)
                .properties("spring.application.name=stamping",
                        "spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                        "spring.kafka.streams.state-dir=" + stateDir,
                        "spring.kafka.streams.properties.commit.interval.ms=100",
                        "spring.kafka.producer.transaction-id-prefix=stamping-",
                        "spring.kafka.producer.properties[transaction.timeout.ms]=120000",
                        "parsley.producer.stamp=true")
                .run();
    }

    private static KafkaConsumer<String, String> consumer(String topic) {
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(),
                new StringDeserializer());
        TopicPartition partition = new TopicPartition(topic, 0);
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
    @Import({TestShop.Topics.class, TestShop.Notifier.class})
    static class StampingApplication {
    }
}
