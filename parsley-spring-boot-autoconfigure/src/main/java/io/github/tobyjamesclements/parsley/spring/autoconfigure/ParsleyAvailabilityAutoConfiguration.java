package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.spring.lifecycle.BrokerConnectivity;
import org.springframework.beans.factory.ObjectProvider;
import org.apache.kafka.streams.KafkaStreams;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration for the liveness and readiness of the running Parsley application: a
 * {@link ParsleyAvailability} that hears the client's state transitions and the broker check.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = {ParsleyStreamsAutoConfiguration.class, ApplicationAvailabilityAutoConfiguration.class})
@ConditionalOnClass({CausalStreams.class, KafkaStreams.class})
@ConditionalOnBooleanProperty(name = "parsley.enabled", matchIfMissing = true)
@ConditionalOnBean({CausalStreams.class, ApplicationAvailability.class})
public final class ParsleyAvailabilityAutoConfiguration {

    ParsleyAvailabilityAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    ParsleyAvailability parsleyAvailability(ApplicationEventPublisher events, ApplicationAvailability availability,
            CausalStreams streams, ParsleyProperties properties, ObjectProvider<BrokerConnectivity> broker) {
        ParsleyAvailability parsley = new ParsleyAvailability(events, availability, streams.applicationId(),
                properties.isReadiness());
        broker.ifUnique(b -> b.addListener(parsley));
        return parsley;
    }
}
