package io.github.tobyjamesclements.parsley.docs.shop;

// tag::overrides[]
import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.spring.CausalState;
import io.github.tobyjamesclements.parsley.spring.ParsleyCodecs;
import io.github.tobyjamesclements.parsley.spring.lifecycle.ParsleyLifecycle;
import java.time.Duration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.annotation.Bean;
// end::overrides[]

/**
 * The override beans of docs/spring-boot.md. Not a configuration class, so that the example
 * application keeps the starter's defaults: only the compiler checks these.
 */
class OverrideExamples {

    // tag::overrides[]
    // Fold state with your own codec and initial state, for stage "balances".
    @Bean
    CausalState<Balance> balancesState(ParsleyCodecs codecs) {
        return CausalState.of("balances", codecs.json(Balance.class), () -> new Balance(0, 0));
    }

    // A longer close, and no start with the context.
    @Bean
    ParsleyLifecycle parsleyLifecycle(CausalStreams streams) {
        return new ParsleyLifecycle(streams, Duration.ofSeconds(45), false);
    }

    // Your own health contributor replaces Parsley's.
    @Bean
    HealthIndicator parsleyHealthIndicator(CausalStreams streams) {
        return () -> Health.status(streams.state().isRunningOrRebalancing() ? Status.UP : Status.DOWN).build();
    }
    // end::overrides[]
}
