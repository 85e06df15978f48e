package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyMeterBinder;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration for Parsley's Micrometer meters.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = ParsleyStreamsAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnClass({CausalStreams.class, MeterRegistry.class})
@ConditionalOnBooleanProperty(name = "parsley.enabled", matchIfMissing = true)
@ConditionalOnBean({CausalStreams.class, Parsley.class, MeterRegistry.class})
public final class ParsleyMetricsAutoConfiguration {

    ParsleyMetricsAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    ParsleyMeterBinder parsleyMeterBinder(CausalStreams streams, Parsley parsley) {
        return new ParsleyMeterBinder(streams, parsley);
    }
}
