package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.spring.lifecycle.BrokerConnectivity;
import io.github.tobyjamesclements.parsley.spring.lifecycle.ParsleyLifecycle;
import io.github.tobyjamesclements.parsley.spring.lifecycle.ParsleyStatus;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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
 * Kafka settings with {@code exactly_once_v2} enforced, managed by a {@link ParsleyLifecycle}. Each
 * job has its own bean or collaborator: the settings ({@code ParsleyStreamsSettings}), topic
 * creation ({@code TopicProvisioner}, with {@code parsley.topics.create}) or the check that the
 * topics exist ({@code TopicPresence}), the state listener fan-out ({@code StateListenerFanOut}), the
 * recording exception handler ({@link ParsleyStatus}) and the broker check
 * ({@link BrokerConnectivity}, with {@code parsley.health.broker-timeout}).
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

    /** Boot's Kafka settings after the customizers, shared by provisioning and the application. */
    @Bean
    @ConditionalOnMissingBean(CausalStreams.class)
    ParsleyStreamsSettings parsleyStreamsSettings(Parsley parsley, KafkaProperties kafka,
            KafkaConnectionDetails connectionDetails, ObjectProvider<KafkaJaasLoginModuleInitializer> jaas,
            ObjectProvider<ParsleyStreamsCustomizer> customizers, ListableBeanFactory beanFactory) {
        // Parsley connects while the context is still creating beans, but Spring installs the login
        // of spring.kafka.jaas.* only after every singleton exists: install it now. Spring's own
        // call later wraps this one with the same entry.
        jaas.ifAvailable(KafkaJaasLoginModuleInitializer::afterSingletonsInstantiated);
        Properties config = StreamsConfigurationFactory.build(kafka, connectionDetails);
        StreamsCustomizers.apply(beanFactory, customizers, config, parsley);
        return new ParsleyStreamsSettings(config);
    }

    /** Development convenience: creates the application's topics before the application resolves them. */
    @Bean
    @ConditionalOnMissingBean(CausalStreams.class)
    @ConditionalOnBooleanProperty("parsley.topics.create")
    TopicProvisioner parsleyTopicProvisioner(Parsley parsley, ParsleyStreamsSettings settings,
            ParsleyProperties properties) {
        TopicProvisioner provisioner = new TopicProvisioner(
                parsley.withStartupCheckTimeout(properties.getStartupCheckTimeout()), settings.properties(),
                properties.getTopics());
        provisioner.provision();
        return provisioner;
    }

    @Bean(destroyMethod = "")
    @ConditionalOnMissingBean
    CausalStreams causalStreams(Parsley parsley, ParsleyStreamsSettings settings, ParsleyProperties properties,
            ObjectProvider<TopicProvisioner> provisioner, ParsleyStatus status,
            ObjectProvider<StreamsUncaughtExceptionHandler> handler,
            ObjectProvider<KafkaStreams.StateListener> listeners) {
        // Created first when enabled; it has checked the cluster already, and once is enough.
        Duration check = provisioner.getIfAvailable() != null ? Duration.ZERO : properties.getStartupCheckTimeout();
        TransientErrorsProperties transientErrors = properties.getTransientErrors();
        Parsley checked = parsley.withStartupCheckTimeout(check).withTransientRetries(transientErrors.getRetries(),
                transientErrors.getBackoff(), transientErrors.getWindow());
        CausalStreams streams = StateDirectoryLock.build(() -> TopicPresence.named(parsley,
                () -> checked.streams(settings.properties())), settings.properties(), parsley.applicationId());
        streams.setStateListener(new StateListenerFanOut(status, listeners));
        streams.setUncaughtExceptionHandler(status.recordingUncaught(handler.getIfUnique()));
        log.info("Parsley application '{}' runs {} stage(s) with processing.guarantee=exactly_once_v2 and"
                + " isolation.level=read_committed (enforced)", parsley.applicationId(), parsley.stages().size());
        return streams;
    }

    /** Connects as the application does, security included, under a client id of its own. */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(ParsleyStreamsSettings.class)
    BrokerConnectivity parsleyBrokerConnectivity(Parsley parsley, ParsleyStreamsSettings settings,
            ParsleyProperties properties) {
        return BrokerConnectivity.of(parsley.applicationId(),
                TopicProvisioner.adminConfig(parsley.applicationId(), settings.properties(), "broker-check"),
                properties.getHealth().getBrokerTimeout());
    }

    @Bean
    @ConditionalOnMissingBean
    ParsleyLifecycle parsleyLifecycle(CausalStreams streams, ParsleyProperties properties, KafkaProperties kafka) {
        return new ParsleyLifecycle(streams, properties.getCloseTimeout(), kafka.getStreams().isAutoStartup());
    }
}
