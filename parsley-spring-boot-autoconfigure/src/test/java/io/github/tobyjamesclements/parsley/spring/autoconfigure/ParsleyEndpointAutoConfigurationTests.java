package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyEndpoint;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyEndpoint.ParsleyDescriptor;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyEndpoint.SourceDescriptor;
import io.github.tobyjamesclements.parsley.spring.actuate.ParsleyEndpoint.StageDescriptor;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;

/**
 * Tests for {@link ParsleyEndpointAutoConfiguration} and what the {@code parsley} endpoint shows,
 * without a broker: the application is a real {@link CausalStreams} that is never started
 * ({@link TestShop#UNSTARTED}).
 */
class ParsleyEndpointAutoConfigurationTests {

    @TempDir
    static Path stateDir;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class,
                    ParsleyStreamsAutoConfiguration.class, ParsleyEndpointAutoConfiguration.class))
            .withUserConfiguration(TestShop.Topics.class)
            .withPropertyValues("spring.application.name=shop", "spring.kafka.streams.state-dir=" + stateDir,
                    "spring.kafka.streams.auto-startup=false",
                    "management.endpoints.web.exposure.include=parsley");

    @Test
    void createsTheEndpointWhenExposed() {
        contextRunner.withUserConfiguration(TestShop.UNSTARTED)
                .run(context -> assertThat(context).hasSingleBean(ParsleyEndpoint.class));
    }

    @Test
    void describesTheStagesTheTopologyAndTheHolds() {
        contextRunner.withUserConfiguration(TestShop.UNSTARTED).run(context -> {
            ParsleyDescriptor descriptor = context.getBean(ParsleyEndpoint.class).parsley();
            assertThat(descriptor.getApplicationId()).isEqualTo("shop");
            assertThat(descriptor.getState()).isEqualTo("CREATED");
            assertThat(descriptor.getHolds()).isEmpty();
            assertThat(descriptor.getTopology()).contains("orders", "payments", "amounts", "notifications", "totals");
            StageDescriptor notifier = stage(descriptor, "notifier");
            assertThat(notifier.getSources()).extracting(SourceDescriptor::getTopic, SourceDescriptor::getLogic)
                    .containsExactlyInAnyOrder(tuple("orders", "handler"),
                            tuple("payments", "handler"));
            assertThat(notifier.getSinks()).containsExactly("notifications");
            assertThat(notifier.getTicks()).isNull();
            assertThat(notifier.isStateful()).isFalse();
            StageDescriptor totals = stage(descriptor, "totals");
            assertThat(totals.getSources()).extracting(SourceDescriptor::getLogic).containsExactly("fold");
            assertThat(totals.isStateful()).isTrue();
        });
    }

    @Test
    void createsNoEndpointWhenNotExposed() {
        contextRunner.withUserConfiguration(TestShop.UNSTARTED)
                .withPropertyValues("management.endpoints.web.exposure.include=health")
                .run(context -> assertThat(context).hasSingleBean(CausalStreams.class)
                        .doesNotHaveBean(ParsleyEndpoint.class));
    }

    @Test
    void createsNoEndpointWhenAccessIsNone() {
        contextRunner.withUserConfiguration(TestShop.UNSTARTED)
                .withPropertyValues("management.endpoint.parsley.access=NONE")
                .run(context -> assertThat(context).doesNotHaveBean(ParsleyEndpoint.class));
    }

    @Test
    void backsOffForUserEndpoint() {
        contextRunner.withUserConfiguration(TestShop.UNSTARTED)
                .withUserConfiguration(UserEndpointConfiguration.class).run(context -> {
            assertThat(context).hasSingleBean(ParsleyEndpoint.class);
            assertThat(context.getBean(ParsleyEndpoint.class))
                    .isSameAs(context.getBean(UserEndpointConfiguration.class).endpoint);
        });
    }

    @Test
    void backsOffWithoutActuator() {
        contextRunner.withUserConfiguration(TestShop.UNSTARTED)
                .withClassLoader(new FilteredClassLoader(ConditionalOnAvailableEndpoint.class))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(CausalStreams.class)
                        .doesNotHaveBean(ParsleyEndpoint.class));
    }

    @Test
    void isOffWhenParsleyIsDisabledEvenForUserParsleyAndStreams() {
        contextRunner.withUserConfiguration(TestShop.HandBuilt.class).withPropertyValues("parsley.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ParsleyEndpoint.class));
    }

    @Test
    void createsNoEndpointWithoutStreams() {
        contextRunner.withUserConfiguration(TestShop.STAGES).withPropertyValues("parsley.streams.enabled=false")
                .run(context -> assertThat(context).hasSingleBean(Parsley.class)
                        .doesNotHaveBean(ParsleyEndpoint.class));
    }

    @Test
    void createsNoEndpointForUserStreamsWithoutAParsleyBean() {
        contextRunner.withUserConfiguration(TestShop.StreamsOnly.class)
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(CausalStreams.class)
                        .doesNotHaveBean(Parsley.class).doesNotHaveBean(ParsleyEndpoint.class));
    }

    private static StageDescriptor stage(ParsleyDescriptor descriptor, String name) {
        List<StageDescriptor> stages = descriptor.getStages().stream().filter(s -> s.getName().equals(name)).toList();
        assertThat(stages).hasSize(1);
        return stages.get(0);
    }

    static class UserEndpointConfiguration {

        ParsleyEndpoint endpoint;

        @Bean
        ParsleyEndpoint userEndpoint(CausalStreams streams, Parsley parsley) {
            endpoint = new ParsleyEndpoint(streams, parsley);
            return endpoint;
        }
    }
}
