package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyMeterBinder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Tests for {@link ParsleyMetricsAutoConfiguration}: Parsley's meters in Boot's
 * {@link MeterRegistry}, on a real {@link CausalStreams} over the in-JVM broker.
 */
class ParsleyMetricsAutoConfigurationTests {

    private static EmbeddedKafkaKraftBroker broker;

    @TempDir
    static Path stateDir;

    private static final AutoConfigurations METRICS = AutoConfigurations.of(MetricsAutoConfiguration.class,
            CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class);

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class,
                    ParsleyStreamsAutoConfiguration.class, ParsleyMetricsAutoConfiguration.class))
            .withUserConfiguration(TestShop.Topics.class)
            .withPropertyValues("spring.application.name=shop",
                    "spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                    "spring.kafka.streams.state-dir=" + stateDir, "spring.kafka.streams.auto-startup=false",
                    "parsley.topics.create=true");

    @BeforeAll
    static void startBroker() {
        broker = EosBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.destroy();
    }

    @Test
    void bindsParsleyMetersForEveryStage() {
        contextRunner.withConfiguration(METRICS).withUserConfiguration(TestShop.STAGES).run(context -> {
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
            }
        });
    }

    @Test
    void bindsAnUnstampedCounterPerStageAndSourceTopic() {
        contextRunner.withConfiguration(METRICS).withUserConfiguration(TestShop.STAGES).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            for (String[] source : new String[][] {{"notifier", "orders"}, {"notifier", "payments"},
                    {"totals", "amounts"}}) {
                assertThat(registry.get("parsley.records.unstamped").tag("application", "shop")
                        .tag("stage", source[0]).tag("topic", source[1]).functionCounter().count()).isZero();
            }
        });
    }

    /**
     * Two running stages with stamps of different widths: the application-level meter is their
     * maximum, while the same name summed over its {@code stage} tag (what a registry without a
     * tag filter shows) is their sum.
     */
    @Test
    void applicationMaximaAreTheMaximumOverStagesNotTheSum() {
        contextRunner.withConfiguration(METRICS).withUserConfiguration(TestShop.STAGES)
                .withPropertyValues("spring.kafka.streams.auto-startup=true",
                        "spring.kafka.streams.replication-factor=1",
                        "spring.kafka.streams.properties.commit.interval.ms=100")
                .run(context -> {
            CausalStreams streams = context.getBean(CausalStreams.class);
            Awaitility.await().atMost(Duration.ofSeconds(60))
                    .until(() -> streams.state() == KafkaStreams.State.RUNNING);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                    broker.getBrokersAsString()), new StringSerializer(), new StringSerializer());
                    KafkaProducer<String, Long> amounts = new KafkaProducer<>(Map.of("bootstrap.servers",
                            broker.getBrokersAsString()), new StringSerializer(), new LongSerializer())) {
                producer.send(new ProducerRecord<>("orders", "c1", "o1")).get();
                producer.send(new ProducerRecord<>("payments", "c1", "p1")).get();
                amounts.send(new ProducerRecord<>("amounts", "c1", 5L)).get();
            }
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> registry.get("parsley.records.delivered")
                    .tag("stage", "notifier").functionCounter().count() == 2
                    && registry.get("parsley.records.delivered").tag("stage", "totals").functionCounter().count() == 1);
            Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                double notifier = registry.get("parsley.stamp.offset.entries").tag("stage", "notifier").gauge().value();
                double totals = registry.get("parsley.stamp.offset.entries").tag("stage", "totals").gauge().value();
                double application = registry.get("parsley.application.stamp.offset.entries")
                        .tag("application", "shop").gauge().value();
                assertThat(notifier).isPositive();
                assertThat(totals).isPositive();
                assertThat(application).isEqualTo(Math.max(notifier, totals)).isLessThan(notifier + totals);
            });
            // The two-source stage counts its unstamped input; the one-source stage has nothing to order.
            assertThat(registry.get("parsley.records.unstamped").tag("stage", "notifier").tag("topic", "payments")
                    .functionCounter().count()).isEqualTo(1.0);
            assertThat(registry.get("parsley.records.unstamped").tag("stage", "totals").tag("topic", "amounts")
                    .functionCounter().count()).isZero();
            for (String meter : new String[] {"parsley.application.records.held.age.max",
                    "parsley.application.stamp.sequence.entries", "parsley.application.topics.unresolvable"}) {
                assertThat(registry.get(meter).tag("application", "shop").gauge().getId().getTags())
                        .as(meter).extracting(Tag::getKey).containsExactly("application");
            }
        });
    }

    @Test
    void bindsKafkaStreamsClientMetrics() {
        contextRunner.withConfiguration(METRICS).withUserConfiguration(TestShop.STAGES).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("kafka.stream.alive.stream.threads").tag("application", "shop").gauge())
                    .isNotNull();
        });
    }

    @Test
    void backsOffForUserMeterBinder() {
        contextRunner.withConfiguration(METRICS).withUserConfiguration(TestShop.STAGES)
                .withUserConfiguration(UserBinderConfiguration.class).run(context -> {
            assertThat(context).hasSingleBean(ParsleyMeterBinder.class);
            assertThat(context.getBean(ParsleyMeterBinder.class))
                    .isSameAs(context.getBean(UserBinderConfiguration.class).binder);
        });
    }

    @Test
    void backsOffWithoutMeterRegistry() {
        contextRunner.withUserConfiguration(TestShop.STAGES)
                .run(context -> assertThat(context).hasSingleBean(CausalStreams.class)
                        .doesNotHaveBean(ParsleyMeterBinder.class));
    }

    @Test
    void backsOffWithoutMicrometer() {
        contextRunner.withConfiguration(METRICS).withUserConfiguration(TestShop.STAGES)
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
