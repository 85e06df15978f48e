package io.github.tobyjamesclements.parsley.samples.orders;

import java.util.List;
import java.util.Map;
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
    EmbeddedKafkaKraftBroker devKafkaBroker() {
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1);
        broker.brokerProperties(BROKER_PROPERTIES);
        return broker; // started by Spring (afterPropertiesSet) and stopped on close (destroy)
    }

    @Bean
    KafkaConnectionDetails devKafkaConnectionDetails(EmbeddedKafkaKraftBroker broker) {
        log.info("No spring.kafka.bootstrap-servers configured: started an in-process Kafka broker at {}",
                broker.getBrokersAsString());
        List<String> servers = List.of(broker.getBrokersAsString().split(","));
        return () -> servers;
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
