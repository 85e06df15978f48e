package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyHealthIndicator;
import io.github.tobyjamesclements.parsley.spring.lifecycle.BrokerConnectivity;
import io.github.tobyjamesclements.parsley.spring.lifecycle.ParsleyLifecycle;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.awaitility.Awaitility;
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

/**
 * Tests for {@link ParsleyHealthContributorAutoConfiguration} and the {@code parsley} health it
 * reports, without a broker: the application is a real {@link CausalStreams} that is never started
 * ({@link TestShop#UNSTARTED}). What it reports while running is in {@link ParsleyActuatorIT}.
 */
class ParsleyHealthContributorAutoConfigurationTests {

    @TempDir
    static Path stateDir;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class,
                    ParsleyStreamsAutoConfiguration.class, ParsleyHealthContributorAutoConfiguration.class,
                    HealthContributorAutoConfiguration.class))
            .withUserConfiguration(TestShop.Topics.class)
            .withPropertyValues("spring.application.name=shop", "spring.kafka.streams.state-dir=" + stateDir,
                    "spring.kafka.streams.auto-startup=false",
                    "parsley.close-timeout=10s");

    @Test
    void createsTheParsleyHealthContributor() {
        contextRunner.withUserConfiguration(TestShop.UNSTARTED).run(context -> {
            assertThat(context).hasSingleBean(ParsleyHealthIndicator.class).hasBean("parsleyHealthContributor");
        });
    }

    @Test
    void reportsUnknownWithDetailsBeforeTheApplicationStarts() {
        contextRunner.withUserConfiguration(TestShop.UNSTARTED).run(context -> {
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
    void reportsDownWithTheBrokerDetailWhileNoBrokerAnswersTheCheck() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String nobody = "127.0.0.1:" + port;
        contextRunner.withUserConfiguration(TestShop.UNSTARTED)
                .withBean(BrokerConnectivity.class, () -> BrokerConnectivity.of("shop",
                        Map.of("bootstrap.servers", nobody), Duration.ofMillis(600)))
                .run(context -> {
                    ParsleyHealthIndicator indicator = context.getBean(ParsleyHealthIndicator.class);
                    Awaitility.await().atMost(Duration.ofSeconds(30))
                            .until(() -> indicator.health().getStatus().equals(Status.DOWN));
                    assertThat(indicator.health().getDetails().get("broker"))
                            .asInstanceOf(InstanceOfAssertFactories.map(String.class, Object.class))
                            .containsEntry("reachable", false).containsEntry("timeoutMs", 600L)
                            .hasEntrySatisfying("unansweredForMs", v -> assertThat((Long) v).isGreaterThan(600L))
                            .hasEntrySatisfying("lastError", v -> assertThat((String) v).contains("TimeoutException"));
                });
    }

    @Test
    void reportsDownOnceTheApplicationIsClosed() {
        contextRunner.withUserConfiguration(TestShop.UNSTARTED).run(context -> {
            context.getBean(ParsleyLifecycle.class).destroy();
            Health health = context.getBean(ParsleyHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("state", "NOT_RUNNING");
        });
    }

    @Test
    void backsOffForAUserBeanNamedParsleyHealthIndicator() {
        contextRunner.withUserConfiguration(TestShop.UNSTARTED)
                .withBean("parsleyHealthIndicator", HealthIndicator.class, () -> () -> Health.up().build())
                .run(context -> assertThat(context).doesNotHaveBean(ParsleyHealthIndicator.class)
                        .hasBean("parsleyHealthIndicator"));
    }

    @Test
    void backsOffForAUserBeanNamedParsleyHealthContributor() {
        contextRunner.withUserConfiguration(TestShop.UNSTARTED)
                .withBean("parsleyHealthContributor", HealthContributor.class,
                () -> CompositeHealthContributor.fromMap(Map.of("mine", (HealthIndicator) () -> Health.up().build())))
                .run(context -> assertThat(context).doesNotHaveBean(ParsleyHealthIndicator.class)
                        .hasBean("parsleyHealthContributor"));
    }

    @Test
    void isOffWhenTheParsleyHealthIndicatorIsDisabled() {
        contextRunner.withUserConfiguration(TestShop.UNSTARTED)
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
        contextRunner.withUserConfiguration(TestShop.UNSTARTED)
                .withClassLoader(new FilteredClassLoader(HealthIndicator.class,
                        ConditionalOnEnabledHealthIndicator.class))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(CausalStreams.class)
                        .doesNotHaveBean(ParsleyHealthIndicator.class));
    }
}
