package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import java.time.Duration;
import java.util.Collection;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Checks the values of {@code parsley.*} that binding accepts but Parsley cannot use, failing with
 * Boot's {@link InvalidConfigurationPropertyValueException}, which names the property and where its
 * value came from. Without it a zero interval failed deep in stage assembly with the stage's words,
 * and an override for a stage that does not exist was silently ignored.
 */
final class ParsleyPropertiesChecks {

    private ParsleyPropertiesChecks() {
    }

    /** Checks an application id where it was read, so the failure names the property that supplied it. */
    static String applicationId(String property, String value) {
        if (!Parsley.isValidApplicationId(value)) {
            throw new InvalidConfigurationPropertyValueException(property, value, "An application id must match "
                    + Parsley.APPLICATION_ID_RULE + " (letters, digits, '.', '_' and '-'): it names the consumer"
                    + " group, changelog and tick topics");
        }
        return value;
    }

    /** Checks the values; runs before the stages are composed, which would refuse some in their own words. */
    static void check(ParsleyProperties properties) {
        positive("parsley.truncation-interval", properties.getTruncationInterval());
        notNegative("parsley.hold-warning-after", properties.getHoldWarningAfter());
        notNegative("parsley.close-timeout", properties.getCloseTimeout());
        stampBound("parsley.max-stamp-bytes", properties.getMaxStampBytes());
        positive("parsley.health.hold-age-threshold", properties.getHealth().getHoldAgeThreshold());
        notNegative("parsley.health.broker-timeout", properties.getHealth().getBrokerTimeout());
        TransientErrorsProperties transientErrors = properties.getTransientErrors();
        if (transientErrors.getRetries() < 0) {
            throw new InvalidConfigurationPropertyValueException("parsley.transient-errors.retries",
                    transientErrors.getRetries(), "The number of replacements must be zero or more");
        }
        notNegative("parsley.transient-errors.backoff", transientErrors.getBackoff());
        positive("parsley.transient-errors.window", transientErrors.getWindow());
        notNegative("parsley.query.wait", properties.getQuery().getWait());
        positive("parsley.query.max-wait", properties.getQuery().getMaxWait());
        positive("parsley.query.forward-timeout", properties.getQuery().getForwardTimeout());
        if (properties.getTopics().getPartitions() < 1) {
            throw new InvalidConfigurationPropertyValueException("parsley.topics.partitions",
                    properties.getTopics().getPartitions(), "A topic needs at least one partition");
        }
        if (properties.getTopics().getReplicationFactor() < 1) {
            throw new InvalidConfigurationPropertyValueException("parsley.topics.replication-factor",
                    properties.getTopics().getReplicationFactor(), "A topic needs at least one replica");
        }
        properties.getStages().forEach((stage, settings) -> {
            positive("parsley.stages." + stage + ".truncation-interval", settings.getTruncationInterval());
            notNegative("parsley.stages." + stage + ".hold-warning-after", settings.getHoldWarningAfter());
            stampBound("parsley.stages." + stage + ".max-stamp-bytes", settings.getMaxStampBytes());
        });
    }

    /** Refuses overrides of a stage the application does not have, which would otherwise be ignored. */
    static void checkStages(ParsleyProperties properties, Collection<String> stages) {
        for (String stage : properties.getStages().keySet()) {
            if (!stages.contains(stage)) {
                throw new InvalidConfigurationPropertyValueException("parsley.stages." + stage, stage, "No stage is"
                        + " named '" + stage + "'; the stages are " + stages + ", so these overrides would be"
                        + " ignored");
            }
        }
    }

    private static void stampBound(String property, @Nullable Integer value) {
        if (value != null && (value < Stage.MIN_MAX_STAMP_BYTES || value > Stage.MAX_MAX_STAMP_BYTES)) {
            throw new InvalidConfigurationPropertyValueException(property, value, "A stamp bound must be between "
                    + Stage.MIN_MAX_STAMP_BYTES + " and " + Stage.MAX_MAX_STAMP_BYTES + " bytes");
        }
    }

    private static void positive(String property, @Nullable Duration value) {
        if (value != null && (value.isZero() || value.isNegative())) {
            throw new InvalidConfigurationPropertyValueException(property, value, "The duration must be positive");
        }
    }

    private static void notNegative(String property, @Nullable Duration value) {
        if (value != null && value.isNegative()) {
            throw new InvalidConfigurationPropertyValueException(property, value,
                    "The duration must be zero or positive");
        }
    }
}
