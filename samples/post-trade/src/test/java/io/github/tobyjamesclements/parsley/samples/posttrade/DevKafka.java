package io.github.tobyjamesclements.parsley.samples.posttrade;

import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * The development broker: an in-process, single-node KRaft broker for {@code spring-boot:test-run}
 * and the tests, used only when {@code spring.kafka.bootstrap-servers} is not set. It listens on a
 * random port, which reaches every client through {@link KafkaConnectionDetails}. A new broker
 * holds none of a previous run's data, so the sample's journal, checkpoint and Streams state start
 * afresh with it.
 */
@TestConfiguration(proxyBeanMethods = false)
@Conditional(DevKafka.NoBootstrapServers.class)
public class DevKafka {

    private static final Logger log = LoggerFactory.getLogger(DevKafka.class);

    /** The loggers of the broker itself, not of the application's clients. */
    private static final List<String> BROKER_LOGGERS = List.of("kafka", "state.change.logger",
            "org.apache.kafka.controller", "org.apache.kafka.metadata", "org.apache.kafka.raft",
            "org.apache.kafka.server", "org.apache.kafka.storage", "org.apache.kafka.image",
            "org.apache.kafka.common.utils.Utils");

    @Bean(destroyMethod = "destroy")
    EmbeddedKafkaBroker devKafkaBroker(WorkFiles files) {
        files.reset();
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 3);
        // By default the broker publishes its address as the system property spring.kafka.bootstrap-servers,
        // which would switch this configuration off for any later context in the same JVM.
        broker.brokerListProperty(EmbeddedKafkaBroker.SPRING_EMBEDDED_KAFKA_BROKERS);
        // A single broker must host the transaction log itself, or exactly-once cannot start.
        broker.brokerProperties(Map.of("transaction.state.log.replication.factor", "1",
                "transaction.state.log.min.isr", "1", "transaction.state.log.num.partitions", "4",
                "offsets.topic.num.partitions", "4", "group.initial.rebalance.delay.ms", "0"));
        broker.afterPropertiesSet();
        log.info("Development Kafka broker started at {} (no spring.kafka.bootstrap-servers configured)",
                broker.getBrokersAsString());
        return broker;
    }

    /**
     * Silences the broker as the application shuts down. On Ctrl-C the JVM runs the broker's own
     * hook that deletes its temporary log directories at the same time as Spring closes the
     * context, so the broker's shutdown would log a page of errors about files already gone.
     */
    @Bean
    ApplicationListener<ContextClosedEvent> devKafkaQuietShutdown(LoggingSystem logging) {
        return event -> BROKER_LOGGERS.forEach(name -> logging.setLogLevel(name, LogLevel.OFF));
    }

    @Bean
    KafkaConnectionDetails devKafkaConnectionDetails(EmbeddedKafkaBroker broker) {
        List<String> servers = List.of(broker.getBrokersAsString().split(","));
        return () -> servers;
    }

    /** Matches when no {@code spring.kafka.bootstrap-servers} is configured. */
    static final class NoBootstrapServers implements Condition {

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return !context.getEnvironment().containsProperty("spring.kafka.bootstrap-servers");
        }
    }
}
