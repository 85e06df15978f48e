package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.spring.diagnostics.StreamsCustomizerException;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.Ordered;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Tests for {@link ParsleyStreamsCustomizer}: customizers change the properties the auto-configured
 * {@link CausalStreams} is built from, in order, and cannot weaken what Parsley enforces.
 */
class ParsleyStreamsCustomizerTests {

    private static EmbeddedKafkaKraftBroker broker;

    @TempDir
    static Path stateDir;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class,
                    ParsleyStreamsAutoConfiguration.class))
            .withUserConfiguration(TestShop.Topics.class).withUserConfiguration(TestShop.STAGES)
            .withPropertyValues("spring.application.name=shop",
                    "spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                    "spring.kafka.streams.state-dir=" + stateDir, "spring.kafka.streams.auto-startup=false",
                    "parsley.topics.create=true");

    @BeforeAll
    static void startBroker() {
        broker = EosBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.destroy();
    }

    @Test
    void customizersRunInOrderAndShapeTheBuiltStreams() {
        List<String> seen = new CopyOnWriteArrayList<>();
        contextRunner.withBean("late", ClientIdSuffix.class, () -> new ClientIdSuffix("-late", 10, seen))
                .withBean("early", ClientIdSuffix.class, () -> new ClientIdSuffix("-early", 1, seen))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(seen).containsExactly("shop", "shop-early");
                    CausalStreams streams = context.getBean(CausalStreams.class);
                    assertThat(streams.metrics().keySet()).anySatisfy(
                            name -> assertThat(name.tags()).containsEntry("client-id", "shop-early-late"));
                });
    }

    @Test
    void customizerSettingAtLeastOnceFailsStartupNamingTheBean() {
        contextRunner.withBean("relaxed", ParsleyStreamsCustomizer.class,
                () -> p -> p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE))
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().isInstanceOf(StreamsCustomizerException.class)
                            .hasMessage("ParsleyStreamsCustomizer bean 'relaxed' set 'processing.guarantee' to"
                                    + " 'at_least_once', but Parsley requires 'exactly_once_v2'");
                    FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
                    assertThat(analysis.getDescription()).startsWith("The ParsleyStreamsCustomizer bean 'relaxed'"
                            + " set 'processing.guarantee' to 'at_least_once', but Parsley requires"
                            + " 'exactly_once_v2'. Causal delivery commits");
                    assertThat(analysis.getAction()).isEqualTo("Remove 'processing.guarantee' from the customizer"
                            + " bean 'relaxed'; Parsley sets it itself.");
                });
    }

    @Test
    void customizerSettingAContinuingHandlerOrAnotherIdFailsStartup() {
        contextRunner.withBean("lenient", ParsleyStreamsCustomizer.class,
                () -> p -> p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
                        LogAndContinueProcessingExceptionHandler.class))
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .isInstanceOf(StreamsCustomizerException.class).hasMessageContaining("'lenient' set"
                                + " 'processing.exception.handler' to '"
                                + LogAndContinueProcessingExceptionHandler.class.getName() + "'"));
        contextRunner.withBean("renamer", ParsleyStreamsCustomizer.class,
                () -> p -> p.put(StreamsConfig.APPLICATION_ID_CONFIG, "other"))
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .isInstanceOf(StreamsCustomizerException.class)
                        .hasMessageContaining("set 'application.id' to 'other', but Parsley requires 'shop'"));
    }

    @Test
    void customizerRestatingWhatParsleyEnforcesIsAccepted() {
        contextRunner.withBean("explicit", ParsleyStreamsCustomizer.class, () -> p -> {
            p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
            p.put(StreamsConfig.APPLICATION_ID_CONFIG, "shop");
        }).run(context -> assertThat(context).hasNotFailed().hasSingleBean(CausalStreams.class));
    }

    /** Appends to the client id, recording the id it was given, so the test sees the order. */
    static final class ClientIdSuffix implements ParsleyStreamsCustomizer, Ordered {

        private final String suffix;
        private final int order;
        private final List<String> seen;

        ClientIdSuffix(String suffix, int order, List<String> seen) {
            this.suffix = suffix;
            this.order = order;
            this.seen = seen;
        }

        @Override
        public void customize(Properties properties) {
            String id = properties.getProperty(StreamsConfig.CLIENT_ID_CONFIG, "shop");
            seen.add(id);
            properties.put(StreamsConfig.CLIENT_ID_CONFIG, id + suffix);
        }

        @Override
        public int getOrder() {
            return order;
        }
    }
}
