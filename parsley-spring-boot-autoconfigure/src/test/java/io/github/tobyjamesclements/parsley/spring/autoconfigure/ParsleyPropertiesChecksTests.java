package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.Parsley;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Tests for {@link ParsleyPropertiesChecks}: {@code parsley.*} values that bind but cannot work fail
 * startup the way Boot's own property errors do, naming the property, the value and the reason.
 */
class ParsleyPropertiesChecksTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class))
            .withPropertyValues("spring.application.name=shop").withUserConfiguration(TestShop.APPLICATION);

    @Test
    void validSettingsStart() {
        contextRunner.withPropertyValues("parsley.stages.totals.truncation-interval=1m",
                "parsley.hold-warning-after=0s").run(context -> assertThat(context).hasSingleBean(Parsley.class));
    }

    @Test
    void zeroIntervalIsABootPropertyError() {
        contextRunner.withPropertyValues("parsley.truncation-interval=0s").run(context -> {
            assertThat(context.getStartupFailure()).rootCause()
                    .isInstanceOf(InvalidConfigurationPropertyValueException.class);
            FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("Invalid value 'PT0S' for configuration property"
                    + " 'parsley.truncation-interval'").contains("The duration must be positive");
        });
    }

    @Test
    void aNegativeBrokerTimeoutIsABootPropertyError() {
        contextRunner.withPropertyValues("parsley.health.broker-timeout=-1s").run(context -> {
            FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("Invalid value 'PT-1S' for configuration property"
                    + " 'parsley.health.broker-timeout'");
        });
    }

    @Test
    void overrideOfAStageThatDoesNotExistIsRefused() {
        contextRunner.withPropertyValues("parsley.stages.totls.hold-warning-after=5s").run(context -> {
            assertThat(context.getStartupFailure()).rootCause()
                    .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                    .hasMessageContaining("Property parsley.stages.totls with value 'totls' is invalid").hasMessageContaining("No stage is named 'totls';"
                            + " the stages are [notifier, totals], so these overrides would be ignored");
        });
    }

    @Test
    void applicationIdErrorNamesThePropertyThatSuppliedIt() {
        contextRunner.withPropertyValues("spring.application.name=my shop").run(context -> {
            assertThat(context.getStartupFailure()).rootCause()
                    .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                    .hasMessageStartingWith("Property spring.application.name with value 'my shop' is invalid");
        });
    }

    @Test
    void aStampBoundOutsideItsRangeIsABootPropertyErrorGlobalOrPerStage() {
        contextRunner.withPropertyValues("parsley.max-stamp-bytes=100").run(context -> {
            assertThat(context.getStartupFailure()).rootCause()
                    .isInstanceOf(InvalidConfigurationPropertyValueException.class);
            assertThat(FailureAnalyses.of(context.getStartupFailure()).getDescription())
                    .contains("Invalid value '100' for configuration property 'parsley.max-stamp-bytes'")
                    .contains("A stamp bound must be between 1024 and 1048576 bytes");
        });
        contextRunner.withPropertyValues("parsley.stages.totals.max-stamp-bytes=2000000").run(context -> assertThat(
                context.getStartupFailure()).rootCause().hasMessageContaining(
                        "Property parsley.stages.totals.max-stamp-bytes with value '2000000'"));
    }

    @Test
    void topicSettingsBelowOneAreRefused() {
        contextRunner.withPropertyValues("parsley.topics.partitions=0").run(context -> assertThat(
                context.getStartupFailure()).rootCause().hasMessageContaining("Property parsley.topics.partitions with value '0'"));
        contextRunner.withPropertyValues("parsley.topics.replication-factor=0").run(context -> assertThat(
                context.getStartupFailure()).rootCause().hasMessageContaining("Property parsley.topics.replication-factor with"));
    }

    @Test
    void aTransientErrorBudgetOutOfRangeNamesTheProperty() {
        contextRunner.withPropertyValues("parsley.transient-errors.retries=-1").run(context -> assertThat(
                context.getStartupFailure()).rootCause().hasMessageContaining(
                        "Property parsley.transient-errors.retries with value '-1'"));
        contextRunner.withPropertyValues("parsley.transient-errors.backoff=-1s").run(context -> assertThat(
                context.getStartupFailure()).rootCause().hasMessageContaining(
                        "Property parsley.transient-errors.backoff with value"));
        contextRunner.withPropertyValues("parsley.transient-errors.window=0s").run(context -> assertThat(
                context.getStartupFailure()).rootCause().hasMessageContaining(
                        "Property parsley.transient-errors.window with value"));
    }
}
