package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration for the {@code parsley} Actuator endpoint.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = ParsleyStreamsAutoConfiguration.class)
@ConditionalOnClass({CausalStreams.class, ConditionalOnAvailableEndpoint.class})
@ConditionalOnBooleanProperty(name = "parsley.enabled", matchIfMissing = true)
@ConditionalOnBean({CausalStreams.class, Parsley.class})
@ConditionalOnAvailableEndpoint(ParsleyEndpoint.class)
public final class ParsleyEndpointAutoConfiguration {

    ParsleyEndpointAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    ParsleyEndpoint parsleyEndpoint(CausalStreams streams, Parsley parsley) {
        return new ParsleyEndpoint(streams, parsley);
    }
}
