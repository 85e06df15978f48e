package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalClock;
import io.github.tobyjamesclements.parsley.CausalConsumerInterceptor;
import io.github.tobyjamesclements.parsley.CausalProducerInterceptor;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.ProducerFactory;

/**
 * Tests for {@link ParsleyStampingAutoConfiguration}: the interceptors are wired into Boot's
 * factories only when {@code parsley.producer.stamp=true}, after the user's own. No client is
 * created, so no broker is needed.
 */
class ParsleyStampingAutoConfigurationTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class,
                    ParsleyStampingAutoConfiguration.class))
            .withPropertyValues("spring.kafka.bootstrap-servers=localhost:9092");

    @Test
    void leavesBootsFactoriesAloneByDefault() {
        contextRunner.run(context -> {
            assertThat(context).doesNotHaveBean(DefaultKafkaProducerFactoryCustomizer.class)
                    .doesNotHaveBean(DefaultKafkaConsumerFactoryCustomizer.class).doesNotHaveBean(CausalClock.class);
            assertThat(context.getBean(ProducerFactory.class).getConfigurationProperties())
                    .doesNotContainKey("interceptor.classes");
            assertThat(context.getBean(ConsumerFactory.class).getConfigurationProperties())
                    .doesNotContainKey("interceptor.classes");
        });
    }

    @Test
    void stampingAppendsTheInterceptorsToThoseTheUserSet() {
        contextRunner.withPropertyValues("parsley.producer.stamp=true",
                "spring.kafka.producer.properties[interceptor.classes]=com.example.Audit, com.example.Trace",
                "spring.kafka.consumer.properties[interceptor.classes]=com.example.Audit").run(context -> {
                    assertThat(context.getBean(ProducerFactory.class).getConfigurationProperties())
                            .containsEntry("interceptor.classes", List.of("com.example.Audit", "com.example.Trace",
                                    CausalProducerInterceptor.class.getName()));
                    assertThat(context.getBean(ConsumerFactory.class).getConfigurationProperties())
                            .containsEntry("interceptor.classes",
                                    List.of("com.example.Audit", CausalConsumerInterceptor.class.getName()))
                            .containsEntry("isolation.level", "read_committed");
                });
    }

    @Test
    void theClockBeanIsTheOneTheInterceptorsShare() {
        contextRunner.withPropertyValues("parsley.producer.stamp=true").run(context -> {
            ProducerFactory<?, ?> factory = context.getBean(ProducerFactory.class);
            assertThat(context.getBean(CausalClock.class)).isSameAs(CausalClock.shared(
                    CausalProducerInterceptor.DEFAULT_CLOCK_NAME, factory.getConfigurationProperties()));
            assertThat(context.getBean(CausalClock.class)).isSameAs(CausalClock.shared(
                    CausalProducerInterceptor.DEFAULT_CLOCK_NAME,
                    context.getBean(ConsumerFactory.class).getConfigurationProperties()));
        });
    }

    @Test
    void aReadUncommittedConsumerFailsStartupNamingTheProperty() {
        contextRunner.withPropertyValues("parsley.producer.stamp=true",
                "spring.kafka.consumer.isolation-level=read-uncommitted").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                            .hasMessage("Property spring.kafka.consumer.isolation-level with value"
                                    + " 'read-uncommitted' is invalid: parsley.producer.stamp=true records every"
                                    + " consumed record as a cause of later sends, and only committed records may be"
                                    + " causes. Set spring.kafka.consumer.isolation-level=read-committed (or leave it"
                                    + " unset), or set parsley.producer.stamp=false");
                });
    }

    @Test
    void readUncommittedSetThroughRawConsumerPropertiesFailsStartupToo() {
        contextRunner.withPropertyValues("parsley.producer.stamp=true",
                "spring.kafka.consumer.properties[isolation.level]=read_uncommitted").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                            .hasMessageContaining("spring.kafka.consumer.properties[isolation.level]");
                });
    }

    @Test
    void anExplicitReadCommittedIsKept() {
        contextRunner.withPropertyValues("parsley.producer.stamp=true",
                "spring.kafka.consumer.isolation-level=read-committed")
                .run(context -> assertThat(context.getBean(ConsumerFactory.class).getConfigurationProperties())
                        .containsEntry("isolation.level", "read_committed"));
    }

    @Test
    void disablingParsleyDisablesStamping() {
        contextRunner.withPropertyValues("parsley.producer.stamp=true", "parsley.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(DefaultKafkaProducerFactoryCustomizer.class)
                        .doesNotHaveBean(CausalClock.class));
    }
}
