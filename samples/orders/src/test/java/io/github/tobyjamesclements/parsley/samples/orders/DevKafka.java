package io.github.tobyjamesclements.parsley.samples.orders;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.utils.Exit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A development Kafka broker: one in-process KRaft broker, started when no
 * {@code spring.kafka.bootstrap-servers} is configured, and its {@link KafkaConnectionDetails}, so
 * that the stages, the generator and the checker all connect to it. It lives in the test tree so
 * that the application's jar never contains it; {@code spring-boot:test-run} puts it on the
 * classpath.
 */
@TestConfiguration(proxyBeanMethods = false)
@Conditional(DevKafka.NoBootstrapServers.class)
public class DevKafka {

    private static final Logger log = LoggerFactory.getLogger(DevKafka.class);

    /** A single broker can honour exactly-once only with a transaction log of replication factor 1. */
    private static final Map<String, String> BROKER_PROPERTIES = Map.of(
            "transaction.state.log.replication.factor", "1",
            "transaction.state.log.min.isr", "1",
            "transaction.state.log.num.partitions", "4",
            "offsets.topic.num.partitions", "4",
            "group.initial.rebalance.delay.ms", "0");

    @Bean
    DevBroker devKafkaBroker() {
        return new DevBroker();
    }

    @Bean
    KafkaConnectionDetails devKafkaConnectionDetails(DevBroker broker) {
        log.info("No spring.kafka.bootstrap-servers configured: started an in-process Kafka broker at {}",
                broker.bootstrapServers());
        List<String> servers = List.of(broker.bootstrapServers().split(","));
        return () -> servers;
    }

    /**
     * The started broker, closed with the context, after everything that uses it.
     *
     * <p>Kafka's test kit registers a JVM shutdown hook that deletes the broker's temporary
     * directory. On Ctrl-C that hook would run while the context is still closing, and the broker
     * would fail under the stages as they commit. So the hooks registered while the broker starts
     * are deferred to {@link #close()}, after the broker has stopped.
     *
     * <p>The broker also sets {@code spring.kafka.bootstrap-servers} and
     * {@code spring.embedded.kafka.brokers} as system properties and never clears them; a later
     * context in the same JVM (the next test class of a failsafe fork) would then take a stopped
     * broker for a configured one. {@link #close()} puts back what they were before.
     */
    static final class DevBroker implements AutoCloseable {

        private static final List<String> SYSTEM_PROPERTIES = List.of("spring.kafka.bootstrap-servers",
                "spring.embedded.kafka.brokers");

        private final EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1);

        private final List<Runnable> deferredHooks = new CopyOnWriteArrayList<>();

        private final Map<String, Optional<String>> propertiesBefore = new HashMap<>();

        DevBroker() {
            SYSTEM_PROPERTIES.forEach(p -> propertiesBefore.put(p, Optional.ofNullable(System.getProperty(p))));
            broker.brokerProperties(BROKER_PROPERTIES);
            Exit.setShutdownHookAdder((name, hook) -> deferredHooks.add(hook));
            try {
                broker.afterPropertiesSet();
            } finally {
                Exit.resetShutdownHookAdder();
            }
        }

        String bootstrapServers() {
            return broker.getBrokersAsString();
        }

        @Override
        public void close() {
            try {
                broker.destroy();
            } finally {
                deferredHooks.forEach(Runnable::run);
                propertiesBefore.forEach((p, before) -> before.ifPresentOrElse(v -> System.setProperty(p, v),
                        () -> System.clearProperty(p)));
            }
        }
    }

    /** Matches when {@code spring.kafka.bootstrap-servers} is unset or empty. */
    static final class NoBootstrapServers extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            List<String> servers = Binder.get(context.getEnvironment())
                    .bind("spring.kafka.bootstrap-servers", Bindable.listOf(String.class)).orElse(List.of());
            return servers.isEmpty() ? ConditionOutcome.match("no spring.kafka.bootstrap-servers")
                    : ConditionOutcome.noMatch("spring.kafka.bootstrap-servers=" + servers);
        }
    }
}
