package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import io.github.tobyjamesclements.parsley.StageProbe;
import io.github.tobyjamesclements.parsley.spring.ParsleyCodecs;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyEndpoint;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyHealthIndicator;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyMeterBinder;
import io.github.tobyjamesclements.parsley.spring.diagnostics.MissingApplicationIdException;
import io.github.tobyjamesclements.parsley.spring.lifecycle.ParsleyLifecycle;
import io.github.tobyjamesclements.parsley.spring.lifecycle.ParsleyStatus;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tests for {@link ParsleyAutoConfiguration}: the {@link Parsley} bean composed from annotated
 * methods, its conditions, back-off and properties. No broker: nothing here builds the streams.
 */
class ParsleyAutoConfigurationTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, JacksonAutoConfiguration.class,
                    ParsleyAutoConfiguration.class))
            .withPropertyValues("spring.application.name=shop");

    @Test
    void composesAnnotatedMethodsIntoOneParsleyApplication() {
        contextRunner.withUserConfiguration(TestShop.APPLICATION).run(context -> {
            assertThat(context).hasSingleBean(Parsley.class).hasSingleBean(ParsleyCodecs.class)
                    .hasSingleBean(ParsleyProperties.class);
            Parsley parsley = context.getBean(Parsley.class);
            assertThat(parsley.applicationId()).isEqualTo("shop");
            assertThat(parsley.stages()).extracting(Stage::name).containsExactlyInAnyOrder("notifier", "totals");
            Stage notifier = stage(parsley, "notifier");
            assertThat(notifier.sourceTopics()).containsExactlyInAnyOrder("orders", "payments");
            assertThat(notifier.sinkTopics()).containsExactly("notifications");
            assertThat(notifier.stateful()).isFalse();
            Stage totals = stage(parsley, "totals");
            assertThat(totals.stateful()).isTrue();
            assertThat(totals.foldsOver("amounts")).isTrue();
        });
    }

    @Test
    void createsNoParsleyWithoutAnnotatedMethods() {
        contextRunner.withUserConfiguration(TestShop.Topics.class).run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(Parsley.class);
            assertThat(context).hasSingleBean(ParsleyProperties.class).hasSingleBean(ParsleyCodecs.class);
        });
    }

    @Test
    void backsOffForUserParsley() {
        contextRunner.withUserConfiguration(TestShop.APPLICATION).withUserConfiguration(UserParsleyConfiguration.class)
                .run(context -> {
                    assertThat(context).hasSingleBean(Parsley.class);
                    assertThat(context.getBean(Parsley.class).applicationId()).isEqualTo("mine");
                });
    }

    @Test
    void backsOffForUserParsleyCodecs() {
        contextRunner.withUserConfiguration(TestShop.APPLICATION).withUserConfiguration(UserCodecsConfiguration.class)
                .run(context -> assertThat(context).getBean(ParsleyCodecs.class)
                        .isSameAs(context.getBean(UserCodecsConfiguration.class).codecs));
    }

    @Test
    void createsNoCodecsWithoutJackson() {
        contextRunner.withClassLoader(new FilteredClassLoader(JsonMapper.class))
                .withUserConfiguration(TestShop.Topics.class, TestShop.Notifier.class)
                .run(context -> assertThat(context).hasSingleBean(Parsley.class).doesNotHaveBean(ParsleyCodecs.class));
    }

    @Test
    void turnsEverythingOffWhenDisabled() {
        contextRunner.withConfiguration(AutoConfigurations.of(ParsleyStreamsAutoConfiguration.class,
                        ParsleyHealthContributorAutoConfiguration.class, ParsleyMetricsAutoConfiguration.class,
                        ParsleyEndpointAutoConfiguration.class, HealthContributorAutoConfiguration.class,
                        MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                        SimpleMetricsExportAutoConfiguration.class))
                .withUserConfiguration(TestShop.APPLICATION)
                .withPropertyValues("parsley.enabled=false", "management.endpoints.web.exposure.include=*")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ParsleyProperties.class)
                        .doesNotHaveBean(ParsleyCodecs.class).doesNotHaveBean(Parsley.class)
                        .doesNotHaveBean(CausalStreams.class).doesNotHaveBean(ParsleyLifecycle.class)
                        .doesNotHaveBean(ParsleyStatus.class).doesNotHaveBean(ParsleyHealthIndicator.class)
                        .doesNotHaveBean(ParsleyMeterBinder.class).doesNotHaveBean(ParsleyEndpoint.class));
    }

    @Test
    void backsOffWithoutKafkaStreams() {
        contextRunner.withClassLoader(new FilteredClassLoader(KafkaStreams.class))
                .withUserConfiguration(TestShop.APPLICATION)
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ParsleyProperties.class)
                        .doesNotHaveBean(Parsley.class));
    }

    @Test
    void applicationIdPrefersParsleyProperty() {
        contextRunner.withUserConfiguration(TestShop.APPLICATION)
                .withPropertyValues("parsley.application-id=from-parsley",
                        "spring.kafka.streams.application-id=from-streams")
                .run(context -> assertThat(context.getBean(Parsley.class).applicationId()).isEqualTo("from-parsley"));
    }

    @Test
    void applicationIdFallsBackToStreamsApplicationId() {
        contextRunner.withUserConfiguration(TestShop.APPLICATION)
                .withPropertyValues("spring.kafka.streams.application-id=from-streams")
                .run(context -> assertThat(context.getBean(Parsley.class).applicationId()).isEqualTo("from-streams"));
    }

    @Test
    void applicationIdFallsBackToApplicationName() {
        contextRunner.withUserConfiguration(TestShop.APPLICATION)
                .run(context -> assertThat(context.getBean(Parsley.class).applicationId()).isEqualTo("shop"));
    }

    @Test
    void startupFailsWithoutApplicationId() {
        contextRunner.withUserConfiguration(TestShop.APPLICATION).withPropertyValues("spring.application.name=")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .isInstanceOf(MissingApplicationIdException.class)
                            .hasMessageContaining("parsley.application-id, spring.kafka.streams.application-id and"
                                    + " spring.application.name are all unset");
                    FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
                    assertThat(analysis.getDescription()).startsWith("No application id is configured for Parsley.");
                    assertThat(analysis.getAction()).isEqualTo("Set 'parsley.application-id',"
                            + " 'spring.kafka.streams.application-id' or 'spring.application.name' to a stable id.");
                });
    }

    @Test
    void stagesGetTheDefaultTruncationIntervalAndHoldWarning() {
        contextRunner.withUserConfiguration(TestShop.APPLICATION).run(context -> {
            Stage notifier = stage(context.getBean(Parsley.class), "notifier");
            assertThat(StageProbe.truncationInterval(notifier)).isEqualTo(Duration.ofMinutes(10));
            assertThat(StageProbe.holdWarningAfter(notifier)).isEqualTo(Duration.ofSeconds(30));
        });
    }

    @Test
    void globalAndPerStageSettingsReachTheirStages() {
        contextRunner.withUserConfiguration(TestShop.APPLICATION)
                .withPropertyValues("parsley.truncation-interval=7m", "parsley.hold-warning-after=45s",
                        "parsley.stages.notifier.truncation-interval=2m", "parsley.stages.totals.hold-warning-after=5s",
                        "parsley.max-stamp-bytes=20000", "parsley.stages.totals.max-stamp-bytes=4096")
                .run(context -> {
                    Parsley parsley = context.getBean(Parsley.class);
                    Stage notifier = stage(parsley, "notifier");
                    Stage totals = stage(parsley, "totals");
                    assertThat(StageProbe.truncationInterval(notifier)).isEqualTo(Duration.ofMinutes(2));
                    assertThat(StageProbe.holdWarningAfter(notifier)).isEqualTo(Duration.ofSeconds(45));
                    assertThat(StageProbe.truncationInterval(totals)).isEqualTo(Duration.ofMinutes(7));
                    assertThat(StageProbe.holdWarningAfter(totals)).isEqualTo(Duration.ofSeconds(5));
                    assertThat(StageProbe.maxStampBytes(notifier)).isEqualTo(20000);
                    assertThat(StageProbe.maxStampBytes(totals)).isEqualTo(4096);
                });
    }

    @Test
    void propertiesBindWithTheirDefaults() {
        contextRunner.run(context -> {
            ParsleyProperties properties = context.getBean(ParsleyProperties.class);
            assertThat(properties.isEnabled()).isTrue();
            assertThat(properties.getApplicationId()).isNull();
            assertThat(properties.getCloseTimeout()).isEqualTo(Duration.ofSeconds(20));
            assertThat(properties.getStreams().isEnabled()).isTrue();
            assertThat(properties.getTopics().isCreate()).isFalse();
            assertThat(properties.getTopics().getPartitions()).isEqualTo(1);
            assertThat(properties.getTopics().getReplicationFactor()).isEqualTo((short) 1);
            assertThat(properties.getHealth().getHoldAgeThreshold()).isEqualTo(Duration.ofMinutes(1));
            assertThat(properties.getHealth().isDownOnStall()).isFalse();
        });
    }

    @Test
    void propertiesBindFromTheEnvironment() {
        contextRunner.withPropertyValues("parsley.close-timeout=3s", "parsley.streams.enabled=false",
                "parsley.topics.create=true", "parsley.topics.partitions=4", "parsley.topics.replication-factor=3",
                "parsley.health.hold-age-threshold=2m", "parsley.health.down-on-stall=true").run(context -> {
                    ParsleyProperties properties = context.getBean(ParsleyProperties.class);
                    assertThat(properties.getCloseTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(properties.getStreams().isEnabled()).isFalse();
                    assertThat(properties.getTopics().isCreate()).isTrue();
                    assertThat(properties.getTopics().getPartitions()).isEqualTo(4);
                    assertThat(properties.getTopics().getReplicationFactor()).isEqualTo((short) 3);
                    assertThat(properties.getHealth().getHoldAgeThreshold()).isEqualTo(Duration.ofMinutes(2));
                    assertThat(properties.getHealth().isDownOnStall()).isTrue();
                });
    }

    private static Stage stage(Parsley parsley, String name) {
        List<Stage> stages = parsley.stages().stream().filter(s -> s.name().equals(name)).toList();
        assertThat(stages).hasSize(1);
        return stages.get(0);
    }

    static class UserParsleyConfiguration {

        @Bean
        Parsley parsley() {
            return Parsley.named("mine", Stage.named("mine").on(TestShop.ORDERS, m -> List.of()).build());
        }
    }

    static class UserCodecsConfiguration {

        final ParsleyCodecs codecs = new ParsleyCodecs(JsonMapper.builder().build());

        @Bean
        ParsleyCodecs userCodecs() {
            return codecs;
        }
    }
}
