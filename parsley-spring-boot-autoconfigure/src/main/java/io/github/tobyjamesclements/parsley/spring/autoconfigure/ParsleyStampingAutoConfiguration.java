package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.CausalClock;
import io.github.tobyjamesclements.parsley.CausalConsumerInterceptor;
import io.github.tobyjamesclements.parsley.CausalProducerInterceptor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.ProducerFactory;

/**
 * Auto-configuration that stamps the application's own Kafka clients when
 * {@code parsley.producer.stamp=true}: {@link CausalProducerInterceptor} is appended to the
 * {@code interceptor.classes} of Boot's producer factory and {@link CausalConsumerInterceptor} to
 * its consumer factory's (keeping any the user set), so every {@code KafkaTemplate} send carries
 * the causes the application consumed and sent before it. The shared {@link CausalClock} is a bean
 * for code that stamps by hand.
 *
 * <p>Boot's consumers become {@code read_committed} unless an isolation level is set; an explicit
 * {@code read_uncommitted} fails startup, because a record of a transaction that later aborts
 * must never be a cause.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = KafkaAutoConfiguration.class)
@ConditionalOnClass({CausalClock.class, DefaultKafkaProducerFactoryCustomizer.class})
@ConditionalOnBooleanProperty(name = "parsley.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "parsley.producer.stamp")
public final class ParsleyStampingAutoConfiguration {

    private static final String ISOLATION_PROPERTY = "spring.kafka.consumer.isolation-level";

    ParsleyStampingAutoConfiguration() {
    }

    @Bean
    DefaultKafkaProducerFactoryCustomizer parsleyStampingProducerCustomizer() {
        return factory -> factory.updateConfigs(Map.of(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG,
                appended(factory.getConfigurationProperties().get(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG),
                        CausalProducerInterceptor.class)));
    }

    @Bean
    DefaultKafkaConsumerFactoryCustomizer parsleyStampingConsumerCustomizer(Environment environment) {
        return factory -> {
            Map<String, Object> update = new HashMap<>();
            update.put(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG, appended(factory.getConfigurationProperties()
                    .get(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG), CausalConsumerInterceptor.class));
            update.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation(environment));
            factory.updateConfigs(update);
        };
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnSingleCandidate(ProducerFactory.class)
    CausalClock parsleyCausalClock(ProducerFactory<?, ?> producerFactory) {
        Map<String, Object> configs = producerFactory.getConfigurationProperties();
        Object name = configs.get(CausalProducerInterceptor.CLOCK_NAME_CONFIG);
        return CausalClock.shared(name == null ? CausalProducerInterceptor.DEFAULT_CLOCK_NAME : name.toString(),
                configs);
    }

    /** The interceptors the user set (a class, a name, a comma-separated list or a list), then {@code added}. */
    static List<String> appended(@Nullable Object existing, Class<?> added) {
        List<String> names = new ArrayList<>();
        if (existing instanceof Iterable<?> list) {
            list.forEach(e -> names.add(name(e)));
        } else if (existing != null) {
            for (String n : name(existing).split(",")) {
                if (!n.isBlank()) {
                    names.add(n.trim());
                }
            }
        }
        if (!names.contains(added.getName())) {
            names.add(added.getName());
        }
        return names;
    }

    private static String name(Object interceptor) {
        return interceptor instanceof Class<?> c ? c.getName() : interceptor.toString().trim();
    }

    /**
     * read_committed, unless the user chose another level: Boot always passes one (its default is
     * Kafka's read_uncommitted), so only the environment tells a choice from the default.
     */
    private static String isolation(Environment environment) {
        Binder binder = Binder.get(environment);
        String property = ISOLATION_PROPERTY;
        String configured = binder.bind(property, String.class).orElse(null);
        if (configured == null) {
            property = "spring.kafka.consumer.properties[isolation.level]";
            configured = binder.bind("spring.kafka.consumer.properties", Bindable.mapOf(String.class, String.class))
                    .orElse(Map.of()).get(ConsumerConfig.ISOLATION_LEVEL_CONFIG);
        }
        if (configured == null) {
            return "read_committed";
        }
        String level = configured.toLowerCase(Locale.ROOT).replace('-', '_');
        if (!level.equals("read_committed")) {
            throw new InvalidConfigurationPropertyValueException(property, configured,
                    "parsley.producer.stamp=true records every consumed record as a cause of later sends, and only"
                            + " committed records may be causes. Set spring.kafka.consumer.isolation-level=read-committed"
                            + " (or leave it unset), or set parsley.producer.stamp=false");
        }
        return level;
    }
}
