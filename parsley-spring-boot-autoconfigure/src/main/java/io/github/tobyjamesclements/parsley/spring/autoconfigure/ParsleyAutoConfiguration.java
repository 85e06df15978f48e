package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.DeliveryObserver;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import io.github.tobyjamesclements.parsley.spring.ParsleyCodecs;
import io.github.tobyjamesclements.parsley.spring.diagnostics.MissingApplicationIdException;
import org.apache.kafka.streams.KafkaStreams;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * Auto-configuration for Parsley's stages: composes the {@code @CausalHandler},
 * {@code @CausalFold} and {@code @CausalTick} methods of the context into one {@link Parsley}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = KafkaAutoConfiguration.class,
        afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnClass({Parsley.class, KafkaStreams.class, KafkaProperties.class})
@ConditionalOnBooleanProperty(name = "parsley.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ParsleyProperties.class)
public final class ParsleyAutoConfiguration {

    ParsleyAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    @Conditional(OnCausalMethodsCondition.class)
    Parsley parsley(ConfigurableListableBeanFactory beanFactory, ObjectProvider<ParsleyCodecs> codecs,
            ParsleyProperties properties, KafkaProperties kafka, Environment environment,
            ObjectProvider<DeliveryObserver> observer) {
        String applicationId = applicationId(properties, kafka, environment);
        ParsleyPropertiesChecks.check(properties);
        Parsley parsley = new AnnotatedStages(beanFactory, codecs.getIfAvailable(), properties)
                .compose(applicationId, CausalMethodScanner.scan(beanFactory));
        ParsleyPropertiesChecks.checkStages(properties, parsley.stages().stream().map(Stage::name).toList());
        return parsley.withDeliveryObserver(observer.getIfAvailable(() -> DeliveryObserver.NONE));
    }

    static String applicationId(ParsleyProperties properties, KafkaProperties kafka, Environment environment) {
        if (StringUtils.hasText(properties.getApplicationId())) {
            return ParsleyPropertiesChecks.applicationId("parsley.application-id", properties.getApplicationId());
        }
        if (StringUtils.hasText(kafka.getStreams().getApplicationId())) {
            return ParsleyPropertiesChecks.applicationId("spring.kafka.streams.application-id",
                    kafka.getStreams().getApplicationId());
        }
        String name = environment.getProperty("spring.application.name");
        if (StringUtils.hasText(name)) {
            return ParsleyPropertiesChecks.applicationId("spring.application.name", name);
        }
        throw new MissingApplicationIdException();
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(JsonMapper.class)
    static class CodecsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ParsleyCodecs parsleyCodecs(ObjectProvider<JsonMapper> mapper) {
            return new ParsleyCodecs(mapper.getIfAvailable(() -> JsonMapper.builder().build()));
        }
    }
}
