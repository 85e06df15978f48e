package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import java.util.Properties;

/**
 * Callback interface for beans that customize the Kafka Streams properties of the auto-configured
 * {@code CausalStreams} before it is built, so an application can change how it is built without
 * replacing the bean (and losing the status, state-listener and exception-handler wiring the
 * auto-configuration adds). Customizers run in {@link org.springframework.core.annotation.Order
 * &#64;Order} / {@link org.springframework.core.Ordered Ordered} order, after Boot's
 * {@code spring.kafka.*} settings are applied, so a later customizer sees and may override what an
 * earlier one set.
 *
 * <p>What Parsley enforces is checked again after each customizer, and startup fails naming the
 * customizer bean if it set {@code processing.guarantee} to anything but {@code exactly_once_v2},
 * {@code processing.exception.handler} or {@code production.exception.handler} to a handler that
 * could continue past a failure, or {@code application.id} to another id than the application's.
 * Read-committed consumers are forced regardless.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface ParsleyStreamsCustomizer {

    /**
     * Customizes the Kafka Streams properties in place.
     *
     * @param properties the properties the {@code CausalStreams} will be built from, never null
     */
    void customize(Properties properties);
}
