package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyHealthIndicator;
import io.github.tobyjamesclements.parsley.spring.lifecycle.BrokerConnectivity;
import io.github.tobyjamesclements.parsley.spring.lifecycle.ParsleyStatus;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration for the {@code parsley} health contributor.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = ParsleyStreamsAutoConfiguration.class)
@ConditionalOnClass({CausalStreams.class, HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class})
@ConditionalOnBooleanProperty(name = "parsley.enabled", matchIfMissing = true)
@ConditionalOnBean({CausalStreams.class, Parsley.class, ParsleyStatus.class})
@ConditionalOnEnabledHealthIndicator("parsley")
public final class ParsleyHealthContributorAutoConfiguration {

    ParsleyHealthContributorAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean(name = {"parsleyHealthIndicator", "parsleyHealthContributor"})
    ParsleyHealthIndicator parsleyHealthContributor(CausalStreams streams, Parsley parsley, ParsleyStatus status,
            ParsleyProperties properties, ObjectProvider<BrokerConnectivity> broker) {
        return new ParsleyHealthIndicator(streams, parsley, status, properties.getHealth().getHoldAgeThreshold(),
                properties.getHealth().isDownOnStall(), broker.getIfUnique());
    }
}
