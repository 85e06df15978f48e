package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalClock;
import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyHealthIndicator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Tests for {@link ParsleyHealthContributorAutoConfiguration} and the {@code parsley} health it
 * reports, on a real {@link CausalStreams} over the in-JVM broker.
 */
class ParsleyHealthContributorAutoConfigurationTests {

    private static EmbeddedKafkaKraftBroker broker;

    @TempDir
    static Path stateDir;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class,
                    ParsleyStreamsAutoConfiguration.class, ParsleyHealthContributorAutoConfiguration.class,
                    HealthContributorAutoConfiguration.class))
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
    void createsTheParsleyHealthContributor() {
        contextRunner.withUserConfiguration(TestShop.STAGES).run(context -> {
            assertThat(context).hasSingleBean(ParsleyHealthIndicator.class).hasBean("parsleyHealthContributor");
        });
    }

    @Test
    void reportsUnknownWithDetailsBeforeTheApplicationStarts() {
        contextRunner.withUserConfiguration(TestShop.STAGES).run(context -> {
            Health health = context.getBean(ParsleyHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UNKNOWN);
            assertThat(health.getDetails()).containsEntry("state", "CREATED").containsEntry("applicationId", "shop")
                    .containsEntry("guarantee", "exactly_once_v2").containsEntry("tasks", List.of())
                    .containsEntry("holds", Map.of("count", 0, "thresholdMs", 60000L, "stalled", false))
                    .doesNotContainKey("lastError");
            assertThat(health.getDetails().get("stages")).asInstanceOf(InstanceOfAssertFactories.LIST)
                    .containsExactlyInAnyOrder("notifier", "totals");
        });
    }

    @Test
    void reportsDownOnceTheApplicationIsClosed() {
        contextRunner.withUserConfiguration(TestShop.STAGES).run(context -> {
            context.getBean(ParsleyLifecycle.class).destroy();
            Health health = context.getBean(ParsleyHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("state", "NOT_RUNNING");
        });
    }

    @Test
    void reportsUpWithTasksWhileRunning() {
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("spring.kafka.streams.auto-startup=true", "parsley.application-id=shop-up")
                .run(context -> {
                    ParsleyHealthIndicator indicator = context.getBean(ParsleyHealthIndicator.class);
                    Awaitility.await().atMost(Duration.ofSeconds(90))
                            .until(() -> "RUNNING".equals(indicator.health().getDetails().get("state")));
                    Health health = indicator.health();
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).containsEntry("state", "RUNNING");
                    assertThat(health.getDetails().get("tasks")).asInstanceOf(InstanceOfAssertFactories.LIST)
                            .isNotEmpty();
                });
    }

    @Test
    void reportsDownWhileAHoldIsOlderThanTheThresholdWhenDownOnStall() throws Exception {
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("spring.kafka.streams.auto-startup=true", "parsley.application-id=shop-stall",
                "parsley.health.hold-age-threshold=1s", "parsley.health.down-on-stall=true").run(context -> {
                    ParsleyHealthIndicator indicator = context.getBean(ParsleyHealthIndicator.class);
                    Awaitility.await().atMost(Duration.ofSeconds(90))
                            .until(() -> indicator.health().getStatus().equals(Status.UP));
                    try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.getBrokersAsString()));
                            KafkaProducer<String, String> orders = producer("stall-orders");
                            KafkaProducer<String, String> payments = producer(null)) {
                        CausalClock clock = new CausalClock(admin);
                        orders.initTransactions();
                        orders.beginTransaction();
                        clock.recordProduced(orders.send(new ProducerRecord<>("orders", "c1", "o1")).get());
                        ProducerRecord<String, String> payment = new ProducerRecord<>("payments", "c1", "p1");
                        clock.stamp(payment.headers());
                        payments.send(payment).get();
                        Awaitility.await().atMost(Duration.ofSeconds(60))
                                .until(() -> indicator.health().getStatus().equals(Status.DOWN));
                        @SuppressWarnings("unchecked")
                        Map<String, Object> holds = (Map<String, Object>) indicator.health().getDetails().get("holds");
                        assertThat(holds).containsEntry("count", 1).containsEntry("stalled", true)
                                .containsEntry("diagnosis", "vc-hold-not-fetched");
                        assertThat(indicator.health().getDetails()).containsEntry("state", "RUNNING");
                        orders.commitTransaction();
                    }
                    Awaitility.await().atMost(Duration.ofSeconds(60))
                            .until(() -> indicator.health().getStatus().equals(Status.UP));
                });
    }

    @Test
    void backsOffForAUserBeanNamedParsleyHealthIndicator() {
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withBean("parsleyHealthIndicator", HealthIndicator.class, () -> () -> Health.up().build())
                .run(context -> assertThat(context).doesNotHaveBean(ParsleyHealthIndicator.class)
                        .hasBean("parsleyHealthIndicator"));
    }

    @Test
    void backsOffForAUserBeanNamedParsleyHealthContributor() {
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withBean("parsleyHealthContributor", HealthContributor.class,
                () -> CompositeHealthContributor.fromMap(Map.of("mine", (HealthIndicator) () -> Health.up().build())))
                .run(context -> assertThat(context).doesNotHaveBean(ParsleyHealthIndicator.class)
                        .hasBean("parsleyHealthContributor"));
    }

    @Test
    void isOffWhenTheParsleyHealthIndicatorIsDisabled() {
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("management.health.parsley.enabled=false")
                .run(context -> assertThat(context).hasSingleBean(CausalStreams.class)
                        .doesNotHaveBean(ParsleyHealthIndicator.class));
    }

    @Test
    void reportsOnUserParsleyAndStreams() {
        contextRunner.withUserConfiguration(TestShop.HandBuilt.class).run(context -> {
            assertThat(context).hasSingleBean(ParsleyHealthIndicator.class);
            assertThat(context.getBean(ParsleyHealthIndicator.class).health().getDetails())
                    .containsEntry("applicationId", "hand-built");
        });
    }

    @Test
    void isOffWhenParsleyIsDisabledEvenForUserParsleyAndStreams() {
        contextRunner.withUserConfiguration(TestShop.HandBuilt.class).withPropertyValues("parsley.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(CausalStreams.class)
                        .doesNotHaveBean(ParsleyHealthIndicator.class));
    }

    @Test
    void createsNoContributorWithoutStreams() {
        contextRunner.withUserConfiguration(TestShop.STAGES).withPropertyValues("parsley.streams.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(ParsleyHealthIndicator.class));
    }

    @Test
    void backsOffWithoutActuatorHealth() {
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .withClassLoader(new FilteredClassLoader(HealthIndicator.class,
                        ConditionalOnEnabledHealthIndicator.class))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(CausalStreams.class)
                        .doesNotHaveBean(ParsleyHealthIndicator.class));
    }

    private static KafkaProducer<String, String> producer(String transactionalId) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString());
        if (transactionalId != null) {
            config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }
}
