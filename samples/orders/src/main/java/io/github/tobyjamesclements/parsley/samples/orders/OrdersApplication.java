package io.github.tobyjamesclements.parsley.samples.orders;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.spring.ParsleyCodecs;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import tools.jackson.databind.json.JsonMapper;

/**
 * The orders sample: orders and payments on different topics, a notifier that never sees a payment
 * before its order, a balances fold whose state is read over HTTP with each payment's token, a
 * traffic generator that makes payments overtake orders, and live checkers. Run it with {@code mvn -pl samples/orders -am spring-boot:test-run}.
 */
@SpringBootApplication
@EnableConfigurationProperties(OrdersProperties.class)
public class OrdersApplication {

    /**
     * Starts the sample against {@code spring.kafka.bootstrap-servers}.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        SpringApplication.run(OrdersApplication.class, args);
    }

    @Bean
    KafkaClients kafkaClients(KafkaProperties properties, KafkaConnectionDetails connection) {
        return new KafkaClients(properties, connection);
    }

    @Bean(TopicSetup.BEAN_NAME)
    TopicSetup orderTopicSetup(KafkaClients clients, OrdersProperties properties) {
        return TopicSetup.ensure(clients.admin(), properties.getTopics());
    }

    @Bean
    @ConditionalOnBooleanProperty(name = "orders.generator.enabled", matchIfMissing = true)
    TrafficGenerator trafficGenerator(OrdersProperties properties, KafkaClients clients, ParsleyCodecs codecs,
            MeterRegistry registry, BalanceChecker balances) {
        return new TrafficGenerator(properties.getGenerator(), clients, codecs, registry, balances::paid);
    }

    @Bean
    BalanceChecker balanceChecker(KafkaClients clients, OrdersProperties properties, Environment environment,
            JsonMapper json, MeterRegistry registry) {
        return new BalanceChecker(clients, properties.getChecker(), environment, json, registry);
    }

    @Bean
    OrderChecker orderChecker(KafkaClients clients, OrdersProperties properties, JsonMapper json,
            ObjectProvider<CausalStreams> streams, MeterRegistry registry) {
        return new OrderChecker(clients, properties.getChecker(), json, streams, registry);
    }
}
