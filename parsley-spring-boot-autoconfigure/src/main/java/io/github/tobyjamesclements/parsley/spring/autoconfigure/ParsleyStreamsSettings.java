package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import java.util.Properties;

/**
 * The Kafka Streams configuration the auto-configured application is built from: Boot's Kafka
 * settings after every {@link ParsleyStreamsCustomizer}. One bean, so that topic provisioning and
 * the application connect with the same settings, security included.
 */
final class ParsleyStreamsSettings {

    private final Properties properties;

    ParsleyStreamsSettings(Properties properties) {
        this.properties = new Properties();
        this.properties.putAll(properties);
    }

    /** A copy, so that no reader changes what the next one sees. */
    Properties properties() {
        Properties copy = new Properties();
        copy.putAll(properties);
        return copy;
    }
}
