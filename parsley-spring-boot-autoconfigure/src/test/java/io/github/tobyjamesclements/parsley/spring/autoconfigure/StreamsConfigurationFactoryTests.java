package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.kafka.autoconfigure.SslBundleSslEngineFactory;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Tests for {@link StreamsConfigurationFactory}: the security settings Boot binds reach every
 * client Kafka Streams creates (main, restore and global consumers, producer, admin) and the admin
 * clients Parsley creates itself, whichever Boot key carries them.
 */
class StreamsConfigurationFactoryTests {

    private static final String JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required"
            + " username=\"shop\" password=\"shop-secret\";";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, SslAutoConfiguration.class))
            .withPropertyValues("spring.kafka.bootstrap-servers=broker:9093");

    @TempDir
    Path dir;

    @Test
    void saslAndSslPropertiesReachEveryClient() {
        Path truststore = dir.resolve("truststore.p12");
        contextRunner.withPropertyValues("spring.kafka.security.protocol=SASL_SSL",
                "spring.kafka.properties.sasl.mechanism=SCRAM-SHA-512",
                "spring.kafka.properties.sasl.jaas.config=" + JAAS,
                "spring.kafka.ssl.trust-store-location=file:" + truststore,
                "spring.kafka.ssl.trust-store-password=store-secret", "spring.kafka.ssl.trust-store-type=PKCS12")
                .run(context -> everyClient(build(context)).forEach(config -> assertThat(config)
                        .containsEntry("security.protocol", "SASL_SSL")
                        .containsEntry("sasl.mechanism", "SCRAM-SHA-512").containsEntry("sasl.jaas.config", JAAS)
                        .containsEntry("ssl.truststore.location", truststore.toString())
                        .containsEntry("ssl.truststore.password", "store-secret")
                        .containsEntry("ssl.truststore.type", "PKCS12")));
    }

    @Test
    void streamsSecurityProtocolOverridesTheCommonOne() {
        contextRunner.withPropertyValues("spring.kafka.security.protocol=SASL_PLAINTEXT",
                "spring.kafka.streams.security.protocol=SASL_SSL")
                .run(context -> everyClient(build(context)).forEach(config -> assertThat(config)
                        .containsEntry("security.protocol", "SASL_SSL")));
    }

    @Test
    void sslBundleReachesEveryClient() throws Exception {
        Path truststore = dir.resolve("bundle.p12");
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        try (OutputStream out = Files.newOutputStream(truststore)) {
            store.store(out, "store-secret".toCharArray());
        }
        contextRunner.withPropertyValues("spring.ssl.bundle.jks.kafka.truststore.location=file:" + truststore,
                "spring.ssl.bundle.jks.kafka.truststore.password=store-secret",
                "spring.ssl.bundle.jks.kafka.truststore.type=PKCS12", "spring.kafka.ssl.bundle=kafka",
                "spring.kafka.security.protocol=SSL").run(context -> {
                    SslBundle bundle = context.getBean(SslBundles.class).getBundle("kafka");
                    everyClient(build(context)).forEach(config -> assertThat(config)
                            .containsEntry("security.protocol", "SSL")
                            .containsEntry("ssl.engine.factory.class", SslBundleSslEngineFactory.class)
                            .containsEntry(SslBundle.class.getName(), bundle));
                });
    }

    @Test
    void connectionDetailsSecurityReachesEveryClient() {
        contextRunner.withBean(KafkaConnectionDetails.class, () -> new KafkaConnectionDetails() {

            @Override
            public List<String> getBootstrapServers() {
                return List.of("container:9093");
            }

            @Override
            public String getSecurityProtocol() {
                return "SASL_SSL";
            }
        }).run(context -> everyClient(build(context)).forEach(config -> assertThat(config)
                .containsEntry("bootstrap.servers", "container:9093").containsEntry("security.protocol", "SASL_SSL")));
    }

    private static Properties build(AssertableApplicationContext context) {
        assertThat(context).hasNotFailed();
        return StreamsConfigurationFactory.build(context.getBean(KafkaProperties.class),
                context.getBean(KafkaConnectionDetails.class));
    }

    /**
     * The configurations of the clients Kafka Streams builds from these properties, and of the
     * admin clients Parsley opens: {@code Parsley.streams} takes the Streams admin settings, the
     * provisioner its own.
     */
    private static List<Map<String, Object>> everyClient(Properties properties) {
        Properties withId = new Properties();
        withId.putAll(properties);
        withId.put(StreamsConfig.APPLICATION_ID_CONFIG, "shop");
        StreamsConfig streams = new StreamsConfig(withId);
        return List.of(streams.getMainConsumerConfigs("shop", "shop-client", 0),
                streams.getRestoreConsumerConfigs("shop-client"), streams.getGlobalConsumerConfigs("shop-client"),
                streams.getProducerConfigs("shop-client"), streams.getAdminConfigs("shop-client"),
                TopicProvisioner.adminConfig("shop", properties, "provisioner"));
    }
}
