package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.spring.diagnostics.MissingBootstrapServersException;
import io.github.tobyjamesclements.parsley.spring.diagnostics.ProcessingGuaranteeException;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.streams.StreamsConfig;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.kafka.autoconfigure.SslBundleSslEngineFactory;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.util.StringUtils;

/**
 * Builds the Kafka Streams configuration from Boot's Kafka support: {@code spring.kafka.*} and
 * {@code spring.kafka.streams.*}, overlaid with {@link KafkaConnectionDetails} exactly as Boot does
 * for its own Streams builder, then checks what Parsley enforces.
 */
final class StreamsConfigurationFactory {

    static final String GUARANTEE_PROPERTY = "spring.kafka.streams.properties.processing.guarantee";

    static final String COMMON_GUARANTEE_PROPERTY = "spring.kafka.properties.processing.guarantee";

    private StreamsConfigurationFactory() {
    }

    static Properties build(KafkaProperties kafka, KafkaConnectionDetails details) {
        Map<String, Object> map = kafka.buildStreamsProperties();
        KafkaConnectionDetails.Configuration streams = details.getStreams();
        List<String> servers = streams.getBootstrapServers();
        if (servers == null || servers.isEmpty() || servers.stream().noneMatch(StringUtils::hasText)) {
            throw new MissingBootstrapServersException();
        }
        map.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, String.join(",", servers));
        if (StringUtils.hasLength(streams.getSecurityProtocol())) {
            map.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, streams.getSecurityProtocol());
        }
        SslBundle bundle = streams.getSslBundle();
        if (bundle != null) {
            map.put(SslConfigs.SSL_ENGINE_FACTORY_CLASS_CONFIG, SslBundleSslEngineFactory.class);
            map.put(SslBundle.class.getName(), bundle);
        }
        Object guarantee = map.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG);
        if (guarantee != null && !StreamsConfig.EXACTLY_ONCE_V2.equals(guarantee.toString())) {
            boolean streamsKey = kafka.getStreams().getProperties()
                    .containsKey(StreamsConfig.PROCESSING_GUARANTEE_CONFIG);
            throw new ProcessingGuaranteeException(streamsKey ? GUARANTEE_PROPERTY : COMMON_GUARANTEE_PROPERTY,
                    guarantee.toString());
        }
        // Parsley's application id is authoritative (it defaults to the same property).
        map.remove(StreamsConfig.APPLICATION_ID_CONFIG);
        Properties properties = new Properties();
        properties.putAll(map);
        return properties;
    }
}
