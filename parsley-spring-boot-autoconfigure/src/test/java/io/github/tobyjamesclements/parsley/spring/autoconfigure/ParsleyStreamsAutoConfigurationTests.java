package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.ClusterConnectionException;
import io.github.tobyjamesclements.parsley.ClusterConnectionException.Reason;
import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.DeliveryObserver;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.MetricNames;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.CausalHandler;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyHealthIndicator;
import io.github.tobyjamesclements.parsley.spring.diagnostics.MissingBootstrapServersException;
import io.github.tobyjamesclements.parsley.spring.diagnostics.ProcessingGuaranteeException;
import io.github.tobyjamesclements.parsley.spring.lifecycle.BrokerConnectivity;
import io.github.tobyjamesclements.parsley.spring.lifecycle.ParsleyLifecycle;
import io.github.tobyjamesclements.parsley.spring.lifecycle.ParsleyStatus;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Tests for {@link ParsleyStreamsAutoConfiguration}: the {@link CausalStreams} built from Boot's
 * Kafka settings on a real in-JVM broker, its lifecycle, hooks, back-off and configuration checks.
 * Streams are not started unless a test says so ({@code spring.kafka.streams.auto-startup=false}).
 */
class ParsleyStreamsAutoConfigurationTests {

    private static EmbeddedKafkaKraftBroker broker;

    @TempDir
    static Path stateDir;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class,
                    ParsleyStreamsAutoConfiguration.class))
            .withUserConfiguration(TestShop.Topics.class)
            .withPropertyValues("spring.application.name=shop",
                    "spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                    "spring.kafka.streams.state-dir=" + stateDir, "spring.kafka.streams.auto-startup=false",
                    "spring.kafka.streams.properties.commit.interval.ms=100", "parsley.topics.create=true",
                    "parsley.close-timeout=10s");

    @BeforeAll
    static void startBroker() {
        broker = EosBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.destroy();
    }

    @Test
    void createsCausalStreamsManagedByALifecycle() {
        contextRunner.withUserConfiguration(TestShop.STAGES).run(context -> {
            assertThat(context).hasSingleBean(CausalStreams.class).hasSingleBean(ParsleyLifecycle.class)
                    .hasSingleBean(ParsleyStatus.class);
            CausalStreams streams = context.getBean(CausalStreams.class);
            assertThat(streams.applicationId()).isEqualTo("shop");
            assertThat(streams.state()).isEqualTo(KafkaStreams.State.CREATED);
            ParsleyLifecycle lifecycle = context.getBean(ParsleyLifecycle.class);
            assertThat(lifecycle.isAutoStartup()).isFalse();
            assertThat(lifecycle.isRunning()).isFalse();
            assertThat(lifecycle.getPhase()).isEqualTo(SmartLifecycle.DEFAULT_PHASE - 1023);
        });
    }

    @Test
    void startsABrokerCheckWithTheContextThatTheBrokerAnswers() {
        contextRunner.withUserConfiguration(TestShop.STAGES).withPropertyValues("parsley.health.broker-timeout=3s")
                .run(context -> {
                    BrokerConnectivity check = context.getBean(BrokerConnectivity.class);
                    assertThat(check.isRunning()).as("started although the streams are not").isTrue();
                    assertThat(check.report().timeout()).isEqualTo(Duration.ofSeconds(3));
                    // Longer than the timeout: a check that could not reach the broker would have an error by then.
                    Awaitility.await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(30))
                            .until(() -> !check.report().lost() && check.report().lastError() == null
                                    && check.report().unansweredFor().isZero());
                    context.close();
                    assertThat(check.isRunning()).as("stopped with the context").isFalse();
                });
    }

    @Test
    void runsTheApplicationAndFansStateChangesOutToListenerBeans() {
        RecordingStateListener listener = new RecordingStateListener();
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("spring.kafka.streams.auto-startup=true", "parsley.application-id=shop-run")
                .withBean(RecordingStateListener.class, () -> listener).run(context -> {
                    ParsleyLifecycle lifecycle = context.getBean(ParsleyLifecycle.class);
                    assertThat(lifecycle.isAutoStartup()).isTrue();
                    assertThat(lifecycle.isRunning()).isTrue();
                    Awaitility.await().atMost(Duration.ofSeconds(90))
                            .until(() -> listener.states.contains(KafkaStreams.State.RUNNING));
                    assertThat(context.getBean(ParsleyStatus.class).state()).isEqualTo(KafkaStreams.State.RUNNING);
                    assertThat(context.getBean(ParsleyStatus.class).since()).isNotNull();
                });
        // close may hand the last transition to Kafka Streams' shutdown thread when it outlasts its timeout
        Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(listener.states)
                .startsWith(KafkaStreams.State.REBALANCING)
                .endsWith(KafkaStreams.State.PENDING_SHUTDOWN, KafkaStreams.State.NOT_RUNNING));
    }

    @Test
    void userUncaughtExceptionHandlerDecidesWhatAFailureDoes() {
        RecordingExceptionHandler handler = new RecordingExceptionHandler();
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("spring.kafka.streams.auto-startup=true", "parsley.application-id=shop-fuse")
                .withUserConfiguration(Fuse.class).withBean(RecordingExceptionHandler.class, () -> handler)
                .run(context -> {
                    CausalStreams streams = context.getBean(CausalStreams.class);
                    Awaitility.await().atMost(Duration.ofSeconds(90))
                            .until(() -> streams.state() == KafkaStreams.State.RUNNING);
                    try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()),
                            new StringSerializer(), new StringSerializer())) {
                        producer.send(new ProducerRecord<>("fuses", "k", "light")).get();
                    }
                    Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> !handler.failures.isEmpty());
                    assertThat(handler.failures.get(0)).hasRootCauseMessage("boom: light");
                    Awaitility.await().atMost(Duration.ofSeconds(60))
                            .until(() -> streams.state() == KafkaStreams.State.ERROR);
                    assertThat(context.getBean(ParsleyStatus.class).lastUncaught()).isSameAs(handler.failures.get(0));
                });
    }

    @Test
    void transientErrorsPastThePropertysBudgetStopTheApplicationAndTurnItsHealthDown() {
        contextRunner.withUserConfiguration(TestShop.STAGES).withUserConfiguration(Relay.class)
                .withPropertyValues("spring.kafka.streams.auto-startup=true", "parsley.application-id=shop-transient",
                        "parsley.transient-errors.retries=1", "parsley.transient-errors.backoff=0s")
                .run(context -> {
                    CausalStreams streams = context.getBean(CausalStreams.class);
                    // Kafka Streams rethrows the failure on the thread it replaces, by design.
                    Awaitility.await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(90))
                            .until(() -> streams.state() == KafkaStreams.State.RUNNING);
                    try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()),
                            new StringSerializer(), new StringSerializer())) {
                        producer.send(new ProducerRecord<>("relays", "k", "v")).get();
                    }
                    Awaitility.await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(90))
                            .until(() -> streams.state() == KafkaStreams.State.ERROR);
                    ParsleyStatus status = context.getBean(ParsleyStatus.class);
                    assertThat(status.lastUncaught()).rootCause().isInstanceOf(InvalidTxnStateException.class);
                    assertThat(streams.metrics().entrySet()).filteredOn(e -> e.getKey().name()
                            .equals(MetricNames.THREAD_REPLACEMENTS_TOTAL)).singleElement()
                            .satisfies(e -> assertThat(e.getValue().metricValue()).isEqualTo(1.0));
                    assertThat(new ParsleyHealthIndicator(streams, context.getBean(Parsley.class), status,
                            Duration.ofMinutes(1), false).health().getStatus()).isEqualTo(Status.DOWN);
                });
    }

    @Test
    void backsOffForUserCausalStreams() {
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withUserConfiguration(UserStreamsConfiguration.class).run(context -> {
            assertThat(context).hasSingleBean(CausalStreams.class);
            assertThat(context.getBean(CausalStreams.class)).isSameAs(
                    context.getBean(UserStreamsConfiguration.class).streams);
            assertThat(context).hasSingleBean(ParsleyLifecycle.class).doesNotHaveBean(BrokerConnectivity.class);
        });
    }

    @Test
    void backsOffForUserParsleyLifecycle() {
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withUserConfiguration(UserLifecycleConfiguration.class).run(context -> {
            assertThat(context).hasSingleBean(ParsleyLifecycle.class);
            assertThat(context.getBean(ParsleyLifecycle.class)).isSameAs(
                    context.getBean(UserLifecycleConfiguration.class).lifecycle);
        });
    }

    @Test
    void buildsParsleyButNoStreamsWhenStreamsAreDisabled() {
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("parsley.streams.enabled=false", "spring.kafka.bootstrap-servers=nowhere:1")
                .run(context -> assertThat(context).hasSingleBean(Parsley.class).doesNotHaveBean(CausalStreams.class)
                        .doesNotHaveBean(ParsleyLifecycle.class).doesNotHaveBean(ParsleyStatus.class));
    }

    @Test
    void createsNoStreamsWithoutAnnotatedMethods() {
        contextRunner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(Parsley.class)
                        .doesNotHaveBean(CausalStreams.class).doesNotHaveBean(ParsleyLifecycle.class));
    }

    @Test
    void createsNothingWhenParsleyIsDisabled() {
        contextRunner.withUserConfiguration(TestShop.STAGES).withPropertyValues("parsley.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(Parsley.class)
                        .doesNotHaveBean(CausalStreams.class).doesNotHaveBean(ParsleyLifecycle.class));
    }

    @Test
    void backsOffWithoutKafkaStreams() {
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withClassLoader(new FilteredClassLoader(KafkaStreams.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(CausalStreams.class)
                        .doesNotHaveBean(ParsleyLifecycle.class));
    }

    @Test
    void startupFailsWhenTheGuaranteeIsAtLeastOnce() {
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("spring.kafka.streams.properties.processing.guarantee=at_least_once")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .isInstanceOf(ProcessingGuaranteeException.class)
                            .hasMessage("Parsley requires processing.guarantee=exactly_once_v2, but"
                                    + " 'spring.kafka.streams.properties.processing.guarantee' is 'at_least_once'");
                    FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
                    assertThat(analysis.getDescription()).startsWith("Parsley requires processing.guarantee"
                            + " 'exactly_once_v2', but 'spring.kafka.streams.properties.processing.guarantee' is"
                            + " 'at_least_once'.");
                    assertThat(analysis.getAction()).isEqualTo("Remove"
                            + " 'spring.kafka.streams.properties.processing.guarantee', since Parsley sets"
                            + " 'exactly_once_v2' itself, or set it to 'exactly_once_v2'.");
                });
    }

    @Test
    void startupFailureNamesTheCommonPropertyThatWeakensTheGuarantee() {
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("spring.kafka.properties.processing.guarantee=at_least_once")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .isInstanceOf(ProcessingGuaranteeException.class)
                            .hasMessageContaining("'spring.kafka.properties.processing.guarantee' is 'at_least_once'");
                });
    }

    @Test
    void acceptsAnExplicitExactlyOnceV2() {
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("spring.kafka.streams.properties.processing.guarantee=exactly_once_v2")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(CausalStreams.class));
    }

    @Test
    void startupFailsWithoutBootstrapServers() {
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("spring.kafka.bootstrap-servers=").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(MissingBootstrapServersException.class)
                    .hasMessage("No Kafka bootstrap servers are configured for Parsley's Kafka Streams client");
            FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
            assertThat(analysis.getDescription()).isEqualTo("No Kafka bootstrap servers are configured for"
                    + " Parsley's Kafka Streams client.");
            assertThat(analysis.getAction()).isEqualTo("Set 'spring.kafka.bootstrap-servers' or"
                    + " 'spring.kafka.streams.bootstrap-servers', or declare a KafkaConnectionDetails bean.");
        });
    }

    @Test
    void unreachableBrokerFailsStartupWithAConnectionAnalysisBeforeTopicsAreCreated() throws IOException {
        String server = "localhost:" + freePort();
        // Load Spring's and Parsley's classes first: the bound is on startup, not on a cold JVM.
        contextRunner.withUserConfiguration(TestShop.STAGES).withPropertyValues("parsley.streams.enabled=false")
                .run(context -> assertThat(context).hasNotFailed());
        long start = System.nanoTime();
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("spring.kafka.bootstrap-servers=" + server).run(context -> {
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            assertThat(context).hasFailed();
            FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
            assertThat(analysis.getCause()).isInstanceOfSatisfying(ClusterConnectionException.class,
                    e -> assertThat(e.reason()).isEqualTo(Reason.NO_BROKER_ANSWERING));
            assertThat(analysis.getDescription()).startsWith("Parsley could not connect to the Kafka cluster: no"
                    + " broker answering.").contains("'spring.kafka.bootstrap-servers'", "'" + server + "'",
                    "security.protocol 'PLAINTEXT (default)'", server + " refused the connection");
            assertThat(analysis.getAction()).startsWith("Start the Kafka brokers, or set"
                    + " 'spring.kafka.bootstrap-servers'");
            assertThat(elapsed).isLessThan(Duration.ofSeconds(20));
            System.out.printf("startup against %s failed after %d ms:%n%s%n%s%n", server, elapsed.toMillis(),
                    analysis.getDescription(), analysis.getAction());
        });
    }

    @Test
    void startupCheckTimeoutIsAProperty() throws IOException {
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("spring.kafka.bootstrap-servers=localhost:" + freePort(),
                        "parsley.startup-check-timeout=2s")
                .run(context -> assertThat(FailureAnalyses.of(context.getStartupFailure()).getCause())
                        .isInstanceOfSatisfying(ClusterConnectionException.class,
                                e -> assertThat(e.timeout()).isEqualTo(Duration.ofSeconds(2))));
    }

    @Test
    void connectionDetailsBeanWinsOverProperties() {
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("spring.kafka.bootstrap-servers=nowhere:1")
                .withBean(KafkaConnectionDetails.class, () -> () -> List.of(broker.getBrokersAsString()))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(CausalStreams.class));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static class RecordingStateListener implements KafkaStreams.StateListener {

        final List<KafkaStreams.State> states = new CopyOnWriteArrayList<>();

        @Override
        public void onChange(KafkaStreams.State newState, KafkaStreams.State oldState) {
            states.add(newState);
        }
    }

    static class RecordingExceptionHandler implements StreamsUncaughtExceptionHandler {

        final List<Throwable> failures = new CopyOnWriteArrayList<>();

        @Override
        public StreamThreadExceptionResponse handle(Throwable exception) {
            failures.add(exception);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
    }

    static class Fuse {

        @Bean
        Topic<String, String> fuses() {
            return Topic.of("fuses", Codec.utf8(), Codec.utf8());
        }

        @CausalHandler(stage = "fuse", source = "fuses")
        void onFuse(Message<String, String> m) {
            throw new IllegalStateException("boom: " + m.value());
        }
    }

    /** A relay whose every delivery fails as a commit answered by a KAFKA-20785 coordinator does. */
    static class Relay {

        @Bean
        Topic<String, String> relays() {
            return Topic.of("relays", Codec.utf8(), Codec.utf8());
        }

        @Bean
        DeliveryObserver failingObserver() {
            return delivered -> {
                throw new InvalidTxnStateException("The producer attempted a transactional operation in an invalid"
                        + " state.");
            };
        }

        @CausalHandler(stage = "relay", source = "relays")
        void onRelay(Message<String, String> m) {
        }
    }

    static class UserStreamsConfiguration {

        CausalStreams streams;

        @Bean
        CausalStreams userStreams(Parsley parsley) {
            Properties properties = new Properties();
            properties.put("bootstrap.servers", broker.getBrokersAsString());
            properties.put("state.dir", stateDir.resolve("user").toString());
            streams = parsley.streams(properties);
            return streams;
        }
    }

    static class UserLifecycleConfiguration {

        ParsleyLifecycle lifecycle;

        @Bean
        ParsleyLifecycle userLifecycle(CausalStreams streams) {
            lifecycle = new ParsleyLifecycle(streams, Duration.ofSeconds(1), false);
            return lifecycle;
        }
    }
}
