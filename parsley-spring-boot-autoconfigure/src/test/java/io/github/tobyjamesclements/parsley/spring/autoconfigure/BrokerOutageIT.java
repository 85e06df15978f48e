package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalProducerInterceptor;
import io.github.tobyjamesclements.parsley.CausalStreams;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A broker outage through Spring Boot's probes and the {@code parsley} health, on a broker in a
 * JVM of its own ({@link StandaloneBroker}) that is stopped and started again on the same port:
 * UP, then DOWN with a {@code broker} detail, readiness refusing traffic and liveness untouched
 * once the broker has been gone longer than {@code parsley.health.broker-timeout}, then UP and
 * accepting traffic again once it is back. Orders and stamped payments are produced throughout,
 * some of them held in the producer while the broker is gone; every one is delivered exactly once,
 * no payment before its order.
 */
class BrokerOutageIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration GENEROUS = Duration.ofSeconds(90);

    @TempDir
    static Path work;

    private static StandaloneBroker broker;

    private final HttpClient http = HttpClient.newHttpClient();
    private final AtomicInteger pairs = new AtomicInteger();
    private final List<Throwable> sendFailures = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startBroker() throws Exception {
        broker = StandaloneBroker.start(work.resolve("broker"), GENEROUS);
    }

    @AfterAll
    static void stopBroker() throws Exception {
        broker.close();
    }

    @Test
    void healthAndReadinessFollowABrokerOutageWhileLivenessStaysAndNothingIsLostOrReordered() throws Exception {
        ScheduledExecutorService load = Executors.newSingleThreadScheduledExecutor();
        try (ConfigurableApplicationContext context = start();
                KafkaProducer<String, String> producer = stampingProducer()) {
            String port = context.getEnvironment().getRequiredProperty("local.server.port");
            ApplicationAvailability availability = context.getBean(ApplicationAvailability.class);
            CausalStreams streams = context.getBean(CausalStreams.class);
            await().until(() -> streams.state() == KafkaStreams.State.RUNNING && status(port, "parsley") == 200);
            assertThat(health(port).path("details").path("broker").path("reachable").asBoolean()).isTrue();

            load.scheduleWithFixedDelay(() -> sendPair(producer), 0, 20, TimeUnit.MILLISECONDS);
            await().until(() -> pairs.get() >= 20);
            long stopping = System.nanoTime();
            broker.stop();

            await().until(() -> status(port, "parsley") == 503);
            long detected = System.nanoTime();
            JsonNode down = health(port);
            assertThat(down.path("status").asString()).isEqualTo("DOWN");
            assertThat(down.path("details").path("state").asString()).isEqualTo("RUNNING");
            JsonNode reach = down.path("details").path("broker");
            assertThat(reach.path("reachable").asBoolean()).isFalse();
            assertThat(reach.path("unansweredForMs").asLong()).isGreaterThan(3000);
            assertThat(reach.path("timeoutMs").asLong()).isEqualTo(3000);
            assertThat(reach.path("lastError").asString()).contains("TimeoutException");
            assertThat(status(port, "readiness")).isEqualTo(503);
            assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
            assertThat(status(port, "liveness")).isEqualTo(200);
            Awaitility.await("stays DOWN while the broker is gone").during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(10)).until(() -> status(port, "parsley") == 503);

            broker.restart(GENEROUS);
            long restarted = System.nanoTime();
            await().until(() -> status(port, "parsley") == 200 && status(port, "readiness") == 200);
            System.out.printf("Broker outage: health DOWN %d ms after the broker began to stop (timeout 3000 ms); UP"
                    + " and ready %d ms after it had started again%n", (detected - stopping) / 1_000_000,
                    (System.nanoTime() - restarted) / 1_000_000);
            assertThat(health(port).path("details").path("broker").path("reachable").asBoolean()).isTrue();
            assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
            assertThat(availability.getLivenessState()).isEqualTo(LivenessState.CORRECT);

            int beforeRecovery = pairs.get();
            await().until(() -> pairs.get() >= beforeRecovery + 20);
            load.shutdown();
            assertThat(load.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
            assertThat(sendFailures).isEmpty();
            assertDeliveredOnceInCausalOrder(pairs.get());
            assertThat(streams.state()).isEqualTo(KafkaStreams.State.RUNNING);
            assertThat(status(port, "liveness")).isEqualTo(200);
        } finally {
            load.shutdownNow();
        }
    }

    /** An order, then its payment once the order is acknowledged: the interceptor stamps the payment with it. */
    private void sendPair(KafkaProducer<String, String> producer) {
        int i = pairs.get();
        try {
            producer.send(new ProducerRecord<>("orders", "c" + i, "o" + i)).get();
            producer.send(new ProducerRecord<>("payments", "c" + i, "o" + i)).get();
            pairs.incrementAndGet();
        } catch (Exception e) {
            sendFailures.add(e);
            throw new IllegalStateException("Send failed for pair " + i, e);
        }
    }

    private void assertDeliveredOnceInCausalOrder(int expected) {
        Map<String, List<String>> byKey = new HashMap<>();
        List<ConsumerRecord<String, String>> notes = readNotifications(2 * expected);
        notes.forEach(r -> byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value()));
        assertThat(notes).as("notifications, exactly once").hasSize(2 * expected);
        for (int i = 0; i < expected; i++) {
            assertThat(byKey.get("c" + i)).as("key c%d in partition order", i).containsExactly("order o" + i,
                    "payment o" + i);
        }
    }

    private List<ConsumerRecord<String, String>> readNotifications(int count) {
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrap(), ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> tps = c.partitionsFor("notifications").stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            await().until(() -> {
                c.poll(Duration.ofMillis(200)).forEach(out::add);
                return out.size() >= count;
            });
            // Anything past the expected count is a duplicate: read what else committed meanwhile.
            c.poll(Duration.ofSeconds(2)).forEach(out::add);
        }
        return out;
    }

    /**
     * Settings as command-line arguments: they outrank system properties, and an in-JVM broker of an
     * earlier test in this fork leaves its address in 'spring.kafka.bootstrap-servers'.
     */
    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(OutageShop.class).web(WebApplicationType.SERVLET)
                .run("--spring.application.name=outage-shop", "--server.port=0",
                        "--spring.kafka.bootstrap-servers=" + broker.bootstrap(),
                        "--spring.kafka.streams.state-dir=" + work.resolve("state"),
                        "--spring.kafka.streams.replication-factor=1",
                        "--spring.kafka.streams.properties.commit.interval.ms=100",
                        "--management.endpoint.health.show-details=always",
                        "--parsley.topics.create=true", "--parsley.topics.partitions=2",
                        "--parsley.health.broker-timeout=3s", "--parsley.close-timeout=10s");
    }

    private static KafkaProducer<String, String> stampingProducer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
                ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, CausalProducerInterceptor.class.getName(),
                CausalProducerInterceptor.CLOCK_NAME_CONFIG, "broker-outage-it"), new StringSerializer(),
                new StringSerializer());
    }

    private int status(String port, String component) throws Exception {
        return http.send(request(port, component), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private JsonNode health(String port) throws Exception {
        return JSON.readTree(http.send(request(port, "parsley"), HttpResponse.BodyHandlers.ofString()).body());
    }

    private static HttpRequest request(String port, String component) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health/" + component))
                .timeout(Duration.ofSeconds(10)).build();
    }

    private static org.awaitility.core.ConditionFactory await() {
        return Awaitility.await().atMost(GENEROUS).pollInterval(Duration.ofMillis(200));
    }

    /** The shared test shop: a notifier over orders and payments, and a totals fold. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import({TestShop.Topics.class, TestShop.Notifier.class, TestShop.Totals.class})
    static class OutageShop {
    }
}
