package io.github.tobyjamesclements.parsley.samples.posttrade;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;

/**
 * Configurations for the sample's plain Kafka clients (the publisher's producers, the checker's
 * consumer, admin clients): Boot's {@code spring.kafka.*} settings with the brokers of
 * {@link KafkaConnectionDetails}, so the development broker, {@code @ServiceConnection} and a real
 * cluster all work alike.
 */
@Component
class KafkaClients {

    private final KafkaProperties properties;
    private final KafkaConnectionDetails details;

    KafkaClients(KafkaProperties properties, KafkaConnectionDetails details) {
        this.properties = properties;
        this.details = details;
    }

    Map<String, Object> producer() {
        return withConnection(properties.buildProducerProperties(), details.getProducer());
    }

    Map<String, Object> consumer() {
        return withConnection(properties.buildConsumerProperties(), details.getConsumer());
    }

    Map<String, Object> admin() {
        return withConnection(properties.buildAdminProperties(), details.getAdmin());
    }

    private static Map<String, Object> withConnection(Map<String, Object> base,
            KafkaConnectionDetails.Configuration connection) {
        Map<String, Object> config = new HashMap<>(base);
        List<String> servers = connection.getBootstrapServers();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, String.join(",", servers));
        if (StringUtils.hasLength(connection.getSecurityProtocol())) {
            config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, connection.getSecurityProtocol());
        }
        return config;
    }
}
