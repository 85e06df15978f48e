package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.DeliveryObserver;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.spring.actuate.ObservationDeliveryObserver;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Tests for {@link ParsleyObservationAutoConfiguration}: which observer the {@link Parsley} bean
 * gets, with and without Micrometer Observation.
 */
class ParsleyObservationAutoConfigurationTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class,
                    ParsleyObservationAutoConfiguration.class))
            .withUserConfiguration(TestShop.APPLICATION)
            .withPropertyValues("spring.application.name=shop");

    @Test
    void bootsObservationRegistryMakesEachDeliveryAnObservation() {
        contextRunner.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class)).run(context -> {
            assertThat(context).hasSingleBean(ObservationDeliveryObserver.class);
            assertThat(context.getBean(Parsley.class).deliveryObserver())
                    .isSameAs(context.getBean(DeliveryObserver.class));
        });
    }

    @Test
    void withoutARegistryNothingIsObserved() {
        contextRunner.run(context -> {
            assertThat(context).doesNotHaveBean(DeliveryObserver.class);
            assertThat(context.getBean(Parsley.class).deliveryObserver()).isSameAs(DeliveryObserver.NONE);
        });
    }

    @Test
    void withoutMicrometerObservationOnTheClasspathNothingIsObserved() {
        contextRunner.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader(ObservationRegistry.class)).run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(DeliveryObserver.class);
                    assertThat(context.getBean(Parsley.class).deliveryObserver()).isSameAs(DeliveryObserver.NONE);
                });
    }

    @Test
    void applicationsOwnObserverWins() {
        contextRunner.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class))
                .withUserConfiguration(OwnObserver.class).run(context -> {
                    assertThat(context).doesNotHaveBean(ObservationDeliveryObserver.class);
                    assertThat(context.getBean(Parsley.class).deliveryObserver())
                            .isSameAs(context.getBean(OwnObserver.class).observer);
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnObserver {

        final DeliveryObserver observer = delivered -> DeliveryObserver.Scope.NONE;

        @Bean
        DeliveryObserver ownObserver() {
            return observer;
        }
    }
}
