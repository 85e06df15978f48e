package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyMeterBinder;
import io.github.tobyjamesclements.parsley.spring.lifecycle.BrokerConnectivity;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration for Parsley's Micrometer meters, and {@code parsley.broker.lost} with the
 * broker check.
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

    /** 1 while the Kafka cluster counts as lost, else 0: the health's broker signal, for alerts. */
    @Bean
    @ConditionalOnBean(BrokerConnectivity.class)
    @ConditionalOnMissingBean(name = "parsleyBrokerMeters")
    MeterBinder parsleyBrokerMeters(BrokerConnectivity broker, Parsley parsley) {
        return registry -> Gauge.builder("parsley.broker.lost", broker, b -> b.report().lost() ? 1 : 0)
                .description("1 while no broker has answered this instance for longer than"
                        + " parsley.health.broker-timeout, else 0")
                .tag("application", parsley.applicationId()).register(registry);
    }
}
