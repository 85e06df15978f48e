package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Parsley;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.security.jaas.KafkaJaasLoginModuleInitializer;

/**
 * Auto-configuration for the running Parsley application: a {@link CausalStreams} built from Boot's
 * Kafka settings with {@code exactly_once_v2} enforced, managed by a {@link ParsleyLifecycle}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = ParsleyAutoConfiguration.class)
@ConditionalOnClass({Parsley.class, KafkaStreams.class, KafkaProperties.class})
@ConditionalOnBooleanProperty(name = "parsley.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "parsley.streams.enabled", matchIfMissing = true)
@ConditionalOnBean(Parsley.class)
public final class ParsleyStreamsAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ParsleyStreamsAutoConfiguration.class);

    ParsleyStreamsAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    ParsleyStatus parsleyStatus() {
        return new ParsleyStatus();
    }

    @Bean(destroyMethod = "")
    @ConditionalOnMissingBean
    CausalStreams causalStreams(Parsley parsley, ParsleyProperties properties, KafkaProperties kafka,
            KafkaConnectionDetails connectionDetails, ParsleyStatus status,
            ObjectProvider<StreamsUncaughtExceptionHandler> handler,
            ObjectProvider<KafkaStreams.StateListener> listeners,
            ObjectProvider<KafkaJaasLoginModuleInitializer> jaas, ObjectProvider<ParsleyStreamsCustomizer> customizers,
            ListableBeanFactory beanFactory) {
        // Parsley connects while the context is still creating beans, but Spring installs the login
        // of spring.kafka.jaas.* only after every singleton exists: install it now. Spring's own
        // call later wraps this one with the same entry.
        jaas.ifAvailable(KafkaJaasLoginModuleInitializer::afterSingletonsInstantiated);
        Properties config = StreamsConfigurationFactory.build(kafka, connectionDetails);
        StreamsCustomizers.apply(beanFactory, customizers, config, parsley);
        // After the customizers, which may change the connection or security settings.
        Parsley checked = parsley.withStartupCheckTimeout(properties.getStartupCheckTimeout());
        checked.checkCluster(config);
        if (properties.getTopics().isCreate()) {
            TopicProvisioner.provision(parsley, config, properties.getTopics());
        }
        // Checked above, before provisioning talked to the cluster; once is enough.
        CausalStreams streams = checked.withStartupCheckTimeout(Duration.ZERO).streams(config);
        streams.setStateListener((next, previous) -> {
            status.onChange(next, previous);
            notify(listeners, status, next, previous);
        });
        StreamsUncaughtExceptionHandler user = handler.getIfUnique();
        streams.setUncaughtExceptionHandler(e -> {
            status.uncaught(e);
            return user == null ? StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT
                    : user.handle(e);
        });
        log.info("Parsley application '{}' runs {} stage(s) with processing.guarantee=exactly_once_v2 and"
                + " isolation.level=read_committed (enforced)", parsley.applicationId(), parsley.stages().size());
        return streams;
    }

    /** Fans a transition out to the listener beans, resolved lazily so listeners may depend on the streams. */
    private static void notify(ObjectProvider<KafkaStreams.StateListener> listeners, ParsleyStatus status,
            KafkaStreams.State next, KafkaStreams.State previous) {
        try {
            listeners.orderedStream().filter(l -> l != status).forEach(l -> l.onChange(next, previous));
        } catch (BeansException e) {
            log.debug("State listeners not notified while the context is closing: {}", e.toString());
        }
    }

    @Bean
    @ConditionalOnMissingBean
    ParsleyLifecycle parsleyLifecycle(CausalStreams streams, ParsleyProperties properties, KafkaProperties kafka) {
        return new ParsleyLifecycle(streams, properties.getCloseTimeout(), kafka.getStreams().isAutoStartup());
    }
}
