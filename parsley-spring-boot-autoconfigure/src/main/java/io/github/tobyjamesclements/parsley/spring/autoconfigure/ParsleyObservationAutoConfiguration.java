package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.DeliveryObserver;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.spring.actuate.ObservationDeliveryObserver;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration for tracing deliveries through holds: with an {@link ObservationRegistry}
 * bean, a {@link DeliveryObserver} that makes each delivery an observation (see
 * {@link ObservationDeliveryObserver}); {@link ParsleyAutoConfiguration} sets it on the
 * application. A {@code DeliveryObserver} bean of the application's own replaces it.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass({Parsley.class, ObservationRegistry.class})
@ConditionalOnBooleanProperty(name = "parsley.enabled", matchIfMissing = true)
@ConditionalOnBean(ObservationRegistry.class)
public final class ParsleyObservationAutoConfiguration {

    ParsleyObservationAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    DeliveryObserver parsleyDeliveryObserver(ObservationRegistry registry) {
        return new ObservationDeliveryObserver(registry);
    }
}
