package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyMeterBinder;
import io.github.tobyjamesclements.parsley.spring.lifecycle.BrokerConnectivity;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;

/**
 * Tests for {@link ParsleyMetricsAutoConfiguration}: Parsley's meters in Boot's
 * {@link MeterRegistry}, without a broker: the application is a real {@link CausalStreams} that is
 * never started ({@link TestShop#UNSTARTED}). What the meters read while it runs is in
 * {@link ParsleyActuatorIT}.
 */
class ParsleyMetricsAutoConfigurationTests {

    @TempDir
    static Path stateDir;

    static final AutoConfigurations METRICS = AutoConfigurations.of(MetricsAutoConfiguration.class,
            CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class);

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class,
                    ParsleyStreamsAutoConfiguration.class, ParsleyMetricsAutoConfiguration.class))
            .withUserConfiguration(TestShop.Topics.class)
            .withPropertyValues("spring.application.name=shop", "spring.kafka.streams.state-dir=" + stateDir,
                    "spring.kafka.streams.auto-startup=false");

    @Test
    void brokerLostIsOneWhileTheBrokerCheckFindsNoBroker() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String nobody = "127.0.0.1:" + port;
        contextRunner.withConfiguration(METRICS).withUserConfiguration(TestShop.UNSTARTED)
                .withBean(BrokerConnectivity.class, () -> BrokerConnectivity.of("shop",
                        Map.of("bootstrap.servers", nobody), Duration.ofMillis(600)))
                .run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> registry.get("parsley.broker.lost")
                            .tag("application", "shop").gauge().value() == 1.0);
                });
    }

    @Test
    void bindsNoBrokerMeterWithoutTheBrokerCheck() {
        contextRunner.withConfiguration(METRICS).withUserConfiguration(TestShop.UNSTARTED).run(context ->
                assertThat(context.getBean(MeterRegistry.class).find("parsley.broker.lost").gauge()).isNull());
    }

    @Test
    void bindsParsleyMetersForEveryStage() {
        contextRunner.withConfiguration(METRICS).withUserConfiguration(TestShop.UNSTARTED).run(context -> {
            assertThat(context).hasSingleBean(ParsleyMeterBinder.class);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            for (String stage : new String[] {"notifier", "totals"}) {
                assertThat(registry.get("parsley.records.held").tag("application", "shop").tag("stage", stage)
                        .gauge().value()).isZero();
                assertThat(registry.get("parsley.records.held.age.max").tag("stage", stage).gauge()).isNotNull();
                assertThat(registry.get("parsley.stamp.offset.entries").tag("stage", stage).gauge()).isNotNull();
                assertThat(registry.get("parsley.stamp.sequence.entries").tag("stage", stage).gauge()).isNotNull();
                assertThat(registry.get("parsley.topics.unresolvable").tag("stage", stage).gauge()).isNotNull();
                assertThat(registry.get("parsley.records.delivered").tag("stage", stage).functionCounter().count())
                        .isZero();
                assertThat(registry.get("parsley.replays.skipped").tag("stage", stage).functionCounter()).isNotNull();
                assertThat(registry.get("parsley.truncation.sweeps.skipped").tag("stage", stage).functionCounter())
                        .isNotNull();
                assertThat(registry.get("parsley.ticks.emitted").tag("stage", stage).functionCounter()).isNotNull();
                assertThat(registry.get("parsley.stamps.coarsened").tag("stage", stage).functionCounter()).isNotNull();
                assertThat(registry.get("parsley.stamps.sent").tag("stage", stage).functionCounter().count()).isZero();
                assertThat(registry.get("parsley.stamp.bytes").tag("stage", stage).functionCounter().count()).isZero();
                assertThat(registry.get("parsley.stamp.bytes.max").tag("stage", stage).gauge().value()).isZero();
            }
            assertThat(registry.get("parsley.application.stamp.bytes.max").tag("application", "shop").gauge())
                    .isNotNull();
            assertThat(registry.get("parsley.thread.replacements").tag("application", "shop").functionCounter()
                    .count()).isZero();
        });
    }

    @Test
    void bindsHoldGaugesPerStageAndSourceTopicUnderNamesOfTheirOwn() {
        contextRunner.withConfiguration(METRICS).withUserConfiguration(TestShop.UNSTARTED).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            for (String[] source : new String[][] {{"notifier", "orders"}, {"notifier", "payments"},
                    {"totals", "amounts"}}) {
                assertThat(registry.get("parsley.topic.records.held").tag("stage", source[0]).tag("topic", source[1])
                        .gauge().value()).isZero();
                assertThat(registry.get("parsley.topic.records.held.age.max").tag("stage", source[0])
                        .tag("topic", source[1]).gauge().value()).isZero();
            }
            // Prometheus refuses one name with two sets of tag keys: the per-stage meters carry no topic
            assertThat(registry.find("parsley.records.held").meters()).allSatisfy(m ->
                    assertThat(m.getId().getTag("topic")).isNull());
        });
    }

    @Test
    void bindsUnstampedAndEmptyStampCountersPerStageAndSourceTopic() {
        contextRunner.withConfiguration(METRICS).withUserConfiguration(TestShop.UNSTARTED).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            for (String[] source : new String[][] {{"notifier", "orders"}, {"notifier", "payments"},
                    {"totals", "amounts"}}) {
                assertThat(registry.get("parsley.records.unstamped").tag("application", "shop")
                        .tag("stage", source[0]).tag("topic", source[1]).functionCounter().count()).isZero();
                assertThat(registry.get("parsley.records.empty.stamp").tag("application", "shop")
                        .tag("stage", source[0]).tag("topic", source[1]).functionCounter().count()).isZero();
            }
        });
    }

    @Test
    void bindsKafkaStreamsClientMetrics() {
        contextRunner.withConfiguration(METRICS).withUserConfiguration(TestShop.UNSTARTED).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("kafka.stream.alive.stream.threads").tag("application", "shop").gauge())
                    .isNotNull();
        });
    }

    @Test
    void backsOffForUserMeterBinder() {
        contextRunner.withConfiguration(METRICS).withUserConfiguration(TestShop.UNSTARTED)
                .withUserConfiguration(UserBinderConfiguration.class).run(context -> {
            assertThat(context).hasSingleBean(ParsleyMeterBinder.class);
            assertThat(context.getBean(ParsleyMeterBinder.class))
                    .isSameAs(context.getBean(UserBinderConfiguration.class).binder);
        });
    }

    @Test
    void backsOffWithoutMeterRegistry() {
        contextRunner.withUserConfiguration(TestShop.UNSTARTED)
                .run(context -> assertThat(context).hasSingleBean(CausalStreams.class)
                        .doesNotHaveBean(ParsleyMeterBinder.class));
    }

    @Test
    void backsOffWithoutMicrometer() {
        contextRunner.withConfiguration(METRICS).withUserConfiguration(TestShop.UNSTARTED)
                .withClassLoader(new FilteredClassLoader("io.micrometer.core"))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(CausalStreams.class)
                        .doesNotHaveBean(ParsleyMeterBinder.class));
    }

    @Test
    void isOffWhenParsleyIsDisabledEvenForUserParsleyAndStreams() {
        contextRunner.withConfiguration(METRICS).withUserConfiguration(TestShop.HandBuilt.class)
                .withPropertyValues("parsley.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ParsleyMeterBinder.class));
    }

    @Test
    void createsNoBinderWithoutStreams() {
        contextRunner.withConfiguration(METRICS).withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("parsley.streams.enabled=false")
                .run(context -> assertThat(context).hasSingleBean(Parsley.class)
                        .doesNotHaveBean(ParsleyMeterBinder.class));
    }

    @Test
    void createsNoBinderForUserStreamsWithoutAParsleyBean() {
        contextRunner.withConfiguration(METRICS).withUserConfiguration(TestShop.StreamsOnly.class)
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(CausalStreams.class)
                        .doesNotHaveBean(Parsley.class).doesNotHaveBean(ParsleyMeterBinder.class));
    }

    static class UserBinderConfiguration {

        ParsleyMeterBinder binder;

        @Bean
        ParsleyMeterBinder userBinder(CausalStreams streams, Parsley parsley) {
            binder = new ParsleyMeterBinder(streams, parsley);
            return binder;
        }
    }
}
