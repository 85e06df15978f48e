package io.github.tobyjamesclements.parsley.samples.orders;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;

/**
 * Configurations of the sample's plain clients (generator and checker): Boot's {@code spring.kafka.*}
 * settings, with the brokers from {@link KafkaConnectionDetails}, so they reach the same cluster as
 * the stages, the development broker included.
 */
final class KafkaClients {

    private final KafkaProperties properties;

    private final KafkaConnectionDetails connection;

    KafkaClients(KafkaProperties properties, KafkaConnectionDetails connection) {
        this.properties = properties;
        this.connection = connection;
    }

    Map<String, Object> producer() {
        return withConnection(properties.buildProducerProperties(), connection.getProducer());
    }

    Map<String, Object> consumer() {
        return withConnection(properties.buildConsumerProperties(), connection.getConsumer());
    }

    Map<String, Object> admin() {
        return withConnection(properties.buildAdminProperties(), connection.getAdmin());
    }

    private static Map<String, Object> withConnection(Map<String, Object> base,
            KafkaConnectionDetails.Configuration details) {
        Map<String, Object> config = new HashMap<>(base);
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, String.join(",", details.getBootstrapServers()));
        if (details.getSecurityProtocol() != null) {
            config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, details.getSecurityProtocol());
        }
        return config;
    }
}
