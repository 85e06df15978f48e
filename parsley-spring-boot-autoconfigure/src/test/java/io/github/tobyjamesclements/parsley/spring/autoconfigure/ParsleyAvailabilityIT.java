package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.CausalHandler;
import io.github.tobyjamesclements.parsley.spring.lifecycle.ParsleyLifecycle;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Liveness and readiness of a Parsley application on the in-JVM broker, through Spring Boot's
 * probes: a handler that throws kills the client under Parsley's fail-closed handling and
 * {@code /actuator/health/liveness} goes DOWN; with {@code parsley.readiness=true} readiness
 * follows the client's RUNNING state through startup, a rebalance and a close, and an instance
 * closed by its context hands its tasks over without waiting for its session to expire.
 */
class ParsleyAvailabilityIT {

    private static final String FUSES = "availability-fuses";

    /** Far below the default 45 s session timeout the second test runs with. */
    private static final Duration HANDOVER_BOUND = Duration.ofSeconds(15);

    private static EmbeddedKafkaKraftBroker broker;

    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path stateDir;

    @BeforeAll
    static void startBroker() {
        broker = EosBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.destroy();
    }

    @Test
    void aDeadClientTurnsTheLivenessProbeDownAndLeavesReadinessAloneByDefault() throws Exception {
        try (ConfigurableApplicationContext context = start(WebApplicationType.SERVLET, "availability-liveness",
                "first", "server.port=0")) {
            CausalStreams streams = context.getBean(CausalStreams.class);
            Awaitility.await().atMost(Duration.ofSeconds(90))
                    .until(() -> streams.state() == KafkaStreams.State.RUNNING);
            String port = context.getEnvironment().getRequiredProperty("local.server.port");
            assertThat(probe(port, "liveness")).isEqualTo(200);
            assertThat(probe(port, "readiness")).isEqualTo(200);

            send("poison availability-liveness");
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> probe(port, "liveness") == 503);
            ApplicationAvailability availability = context.getBean(ApplicationAvailability.class);
            assertThat(availability.getLivenessState()).isEqualTo(LivenessState.BROKEN);
            assertThat(streams.state()).isIn(KafkaStreams.State.PENDING_ERROR, KafkaStreams.State.ERROR);
            assertThat(probe(port, "readiness")).isEqualTo(200);
            assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
            assertThat(context.getBean(ReadinessRecorder.class).fromParsley).isEmpty();
        }
    }

    @Test
    void readinessFollowsTheClientAndAClosedInstanceHandsOverAtOnce() {
        try (ConfigurableApplicationContext first = start(WebApplicationType.NONE, "availability-readiness", "first",
                "spring.kafka.streams.auto-startup=false", "parsley.readiness=true")) {
            ApplicationAvailability availability = first.getBean(ApplicationAvailability.class);
            List<ReadinessState> readiness = first.getBean(ReadinessRecorder.class).fromParsley;
            assertThat(availability.getReadinessState()).as("ready application, client not started")
                    .isEqualTo(ReadinessState.REFUSING_TRAFFIC);

            first.getBean(ParsleyLifecycle.class).start();
            awaitReadiness(availability, ReadinessState.ACCEPTING_TRAFFIC);
            CausalStreams firstStreams = first.getBean(CausalStreams.class);
            assertThat(firstStreams.state()).isEqualTo(KafkaStreams.State.RUNNING);

            try (ConfigurableApplicationContext second = start(WebApplicationType.NONE, "availability-readiness",
                    "second")) {
                CausalStreams secondStreams = second.getBean(CausalStreams.class);
                Awaitility.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50))
                        .until(() -> activeTasks(firstStreams) > 0 && activeTasks(secondStreams) > 0);
                assertThat(readiness).as("the first instance rebalanced when the second joined")
                        .containsSubsequence(ReadinessState.ACCEPTING_TRAFFIC, ReadinessState.REFUSING_TRAFFIC);
                awaitReadiness(availability, ReadinessState.ACCEPTING_TRAFFIC);

                second.close();
                long closed = System.nanoTime();
                Awaitility.await("the remaining instance runs the closed one's tasks").atMost(HANDOVER_BOUND)
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> activeTasks(firstStreams) == 2);
                System.out.printf("Handover on context close: the remaining instance owned all tasks %d ms after"
                        + " the close%n", (System.nanoTime() - closed) / 1_000_000);
            }
            awaitReadiness(availability, ReadinessState.ACCEPTING_TRAFFIC);

            first.getBean(ParsleyLifecycle.class).stop();
            assertThat(firstStreams.state()).isEqualTo(KafkaStreams.State.NOT_RUNNING);
            assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
            assertThat(availability.getLivenessState()).as("a deliberate close is not a failure")
                    .isEqualTo(LivenessState.CORRECT);
        }
    }

    private ConfigurableApplicationContext start(WebApplicationType type, String applicationId, String instance,
            String... properties) {
        return new SpringApplicationBuilder(FuseApplication.class).web(type)
                .properties("spring.application.name=" + applicationId,
                        "spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                        "spring.kafka.streams.state-dir=" + stateDir.resolve(instance),
                        "spring.kafka.streams.replication-factor=1",
                        "spring.kafka.streams.properties.commit.interval.ms=100",
                        "parsley.topics.create=true", "parsley.topics.partitions=2", "parsley.close-timeout=20s")
                .properties(properties)
                .run();
    }

    private static void awaitReadiness(ApplicationAvailability availability, ReadinessState state) {
        Awaitility.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50))
                .until(() -> availability.getReadinessState() == state);
    }

    private static long activeTasks(CausalStreams streams) {
        return streams.metadataForLocalThreads().stream().map(ThreadMetadata::activeTasks).mapToLong(s -> s.size())
                .sum();
    }

    private int probe(String port, String group) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health/" + group))
                .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static void send(String value) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()), new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(FUSES, "k", value)).get();
        }
    }

    /** One stage whose handler throws on a poisoned value: the task fails and the client shuts down. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class FuseApplication {

        @Bean
        Topic<String, String> fuses() {
            return Topic.of(FUSES, Codec.utf8(), Codec.utf8());
        }

        @Bean
        Fuse fuse(Environment environment) {
            return new Fuse("poison " + environment.getRequiredProperty("spring.application.name"));
        }

        @Bean
        ReadinessRecorder readinessRecorder() {
            return new ReadinessRecorder();
        }
    }

    /** Throws on the poison of its own application only: the topic outlives each test. */
    record Fuse(String poison) {

        @CausalHandler(stage = "fuse", source = FUSES)
        void onFuse(Message<String, String> m) {
            if (m.value().equals(poison)) {
                throw new IllegalStateException("poisoned record at offset " + m.offset());
            }
        }
    }

    /** The readiness changes Parsley published, in order. */
    static class ReadinessRecorder implements ApplicationListener<AvailabilityChangeEvent<ReadinessState>> {

        final List<ReadinessState> fromParsley = new CopyOnWriteArrayList<>();

        @Override
        public void onApplicationEvent(AvailabilityChangeEvent<ReadinessState> event) {
            if (event.getSource() instanceof ParsleyAvailability) {
                fromParsley.add(event.getState());
            }
        }
    }
}
