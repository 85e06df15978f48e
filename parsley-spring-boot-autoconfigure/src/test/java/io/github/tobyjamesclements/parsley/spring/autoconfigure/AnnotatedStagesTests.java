package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.Emission;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import io.github.tobyjamesclements.parsley.Step;
import io.github.tobyjamesclements.parsley.Tick;
import io.github.tobyjamesclements.parsley.spring.CausalFold;
import io.github.tobyjamesclements.parsley.spring.CausalHandler;
import io.github.tobyjamesclements.parsley.spring.CausalState;
import io.github.tobyjamesclements.parsley.spring.CausalTick;
import io.github.tobyjamesclements.parsley.spring.diagnostics.DuplicateSourceException;
import io.github.tobyjamesclements.parsley.spring.diagnostics.InvalidCausalMethodException;
import io.github.tobyjamesclements.parsley.spring.diagnostics.TopicTypeMismatchException;
import io.github.tobyjamesclements.parsley.spring.diagnostics.UnknownTopicException;
import io.github.tobyjamesclements.parsley.spring.test.ParsleyTestHarness;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tests for {@link AnnotatedStages}: how validated methods become stages, and how topics, types,
 * ticks and fold state that do not fit together fail startup.
 */
class AnnotatedStagesTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class))
            .withPropertyValues("spring.application.name=shop").withUserConfiguration(TestShop.Topics.class);

    @Test
    void theDeadLetterTopicPropertyReachesTheApplication() {
        contextRunner.withUserConfiguration(TestShop.STAGES).run(context -> {
            assertThat(context.getBean(Parsley.class).deadLetterTopic()).as("unset: fail closed").isEmpty();
        });
        contextRunner.withUserConfiguration(TestShop.STAGES).withPropertyValues("parsley.dead-letter-topic=dead")
                .run(context -> assertThat(context.getBean(Parsley.class).deadLetterTopic()).hasValue("dead"));
        contextRunner.withUserConfiguration(TestShop.STAGES).withPropertyValues("parsley.dead-letter-topic=orders")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().isInstanceOf(IllegalArgumentException.class)
                            .hasMessageContaining("Dead-letter topic is a source of a stage")
                            .hasMessageContaining("topic=orders");
                });
    }

    @Test
    void unknownSourceTopicFailsStartup() {
        contextRunner.withBean("refunds", UnknownSource.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(UnknownTopicException.class)
                    .hasMessage("Method 'UnknownSource.onRefund(Message)' on bean 'refunds' names topic 'refunds',"
                            + " but no Topic bean is declared for it; declared topics: [amounts, notifications, orders,"
                            + " payments, totals]");
            FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
            assertThat(analysis.getDescription()).isEqualTo("The method 'UnknownSource.onRefund(Message)' on bean"
                    + " 'refunds' names topic 'refunds', but no Topic bean is declared for it. Declared topics:"
                    + " 'amounts', 'notifications', 'orders', 'payments', 'totals'.");
            assertThat(analysis.getAction()).isEqualTo("Declare a Topic bean for 'refunds', such as"
                    + " Topic.of(\"refunds\", keyCodec, valueCodec), or correct the topic name in the annotation.");
        });
    }

    @Test
    void unknownSinkTopicFailsStartup() {
        contextRunner.withBean("notifier", UnknownSink.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(UnknownTopicException.class)
                    .hasMessageContaining("names topic 'emails'");
        });
    }

    @Test
    void topicConsumedByTwoStagesComposesBothStagesOnIt() {
        contextRunner.withBean("first", FirstOrderConsumer.class).withBean("second", SecondOrderConsumer.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(Parsley.class).stages())
                            .extracting(Stage::name, Stage::sourceTopics)
                            .containsExactlyInAnyOrder(tuple("billing", List.of("orders")),
                                    tuple("shipping", List.of("orders")));
                });
    }

    @Test
    void topicConsumedTwiceWithinOneStageFailsStartup() {
        contextRunner.withBean("first", FirstOrderConsumer.class).withBean("again", AnotherBillingConsumer.class)
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().isInstanceOf(DuplicateSourceException.class)
                            .hasMessage("Topic 'orders' is the source of stage 'billing' (first.onOrder) and of"
                                    + " stage 'billing' (again.onOrder)");
                    FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
                    assertThat(analysis.getDescription()).isEqualTo("Topic 'orders' is the source of stage 'billing'"
                            + " (first.onOrder) and of stage 'billing' (again.onOrder), but within one stage each"
                            + " source topic belongs to exactly one method.");
                    assertThat(analysis.getAction()).isEqualTo("Consume 'orders' in one method of the stage. Other"
                            + " stages may consume it as well: each keeps its own order, holds and state.");
                });
    }

    @Test
    void messageTypeThatDoesNotFitTheTopicFailsStartup() {
        contextRunner.withBean("notifier", MismatchedMessage.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(TopicTypeMismatchException.class)
                    .hasMessage("Method 'MismatchedMessage.onOrder(Message)' on bean 'notifier' takes"
                            + " Message<String, Integer> but topic 'orders' is a Topic<String, String>");
            FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
            assertThat(analysis.getDescription()).isEqualTo("The method 'MismatchedMessage.onOrder(Message)' on"
                    + " bean 'notifier' takes 'Message<String, Integer>', but topic 'orders' is declared as"
                    + " 'Topic<String, String>'.");
            assertThat(analysis.getAction()).isEqualTo("Change the parameter to 'Message<String, String>', or"
                    + " change the key and value types of the Topic bean for 'orders'.");
        });
    }

    @Test
    void messageOfWiderTypesFitsTheTopic() {
        contextRunner.withBean("notifier", WiderMessage.class)
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(Parsley.class));
    }

    @Test
    void secondTickInAStageFailsStartup() {
        contextRunner.withBean("ticks", TwoTicks.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(InvalidCausalMethodException.class)
                    .hasMessage("Invalid @CausalTick method 'TwoTicks.second(Tick)' on bean 'ticks': stage"
                            + " 'heartbeat' already has the tick method 'TwoTicks.first'");
            FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
            assertThat(analysis.getDescription()).isEqualTo("The @CausalTick method 'TwoTicks.second(Tick)' on bean"
                    + " 'ticks' is invalid: stage 'heartbeat' already has the tick method 'TwoTicks.first'.");
            assertThat(analysis.getAction()).isEqualTo("Keep one @CausalTick method in stage 'heartbeat': merge the"
                    + " two, or move one to another stage.");
        });
    }

    @Test
    void foldsOfOneStageWithDifferentStateTypesFailStartup() {
        contextRunner.withBean("folds", DifferentStates.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(InvalidCausalMethodException.class)
                    .hasMessageContaining("its state type 'String' differs from 'Long' of 'DifferentStates.count'");
            FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
            assertThat(analysis.getAction()).isEqualTo("Give every fold of stage 'totals' the state type 'Long'.");
        });
    }

    @Test
    void statefulStageWithoutJsonMapperOrCausalStateFailsStartup() {
        contextRunner.withClassLoader(new FilteredClassLoader(JsonMapper.class))
                .withUserConfiguration(TestShop.Totals.class).run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .isInstanceOf(InvalidCausalMethodException.class)
                            .hasMessageContaining("stage 'totals' needs a state codec, and no JSON mapper is"
                                    + " available");
                    FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
                    assertThat(analysis.getAction()).isEqualTo("Add spring-boot-jackson to the classpath, or declare"
                            + " a CausalState bean for stage 'totals'.");
                });
    }

    @Test
    void causalStateBeanSuppliesTheStateCodecAndInitialState() {
        contextRunner.withClassLoader(new FilteredClassLoader(JsonMapper.class))
                .withUserConfiguration(TestShop.Totals.class, TotalsStateConfiguration.class).run(context -> {
                    try (ParsleyTestHarness harness = ParsleyTestHarness.of(context.getBean(Parsley.class))) {
                        harness.pipe(TestShop.AMOUNTS, "alice", 5L);
                        harness.pipe(TestShop.AMOUNTS, "alice", 2L);
                        assertThat(harness.read(TestShop.TOTALS)).extracting(Message::value).containsExactly(105L,
                                107L);
                    }
                    assertThat(context.getBean(TotalsStateConfiguration.class).encoded).isPositive();
                });
    }

    @Test
    void foldStateDefaultsToJsonAndTheNoArgConstructor() {
        contextRunner.withUserConfiguration(TestShop.Totals.class).run(context -> {
            try (ParsleyTestHarness harness = ParsleyTestHarness.of(context.getBean(Parsley.class))) {
                harness.pipe(TestShop.AMOUNTS, "bob", 3L);
                harness.pipe(TestShop.AMOUNTS, "bob", 4L);
                assertThat(harness.read(TestShop.TOTALS)).extracting(Message::value).containsExactly(3L, 7L);
            }
        });
    }

    static class UnknownSource {

        @CausalHandler(stage = "refunds", source = "refunds")
        void onRefund(Message<String, String> m) {
        }
    }

    static class UnknownSink {

        @CausalHandler(stage = "notifier", source = "orders", sinks = "emails")
        void onOrder(Message<String, String> m) {
        }
    }

    static class FirstOrderConsumer {

        @CausalHandler(stage = "billing", source = "orders")
        void onOrder(Message<String, String> m) {
        }
    }

    static class SecondOrderConsumer {

        @CausalHandler(stage = "shipping", source = "orders")
        void onOrder(Message<String, String> m) {
        }
    }

    static class AnotherBillingConsumer {

        @CausalHandler(stage = "billing", source = "orders")
        void onOrder(Message<String, String> m) {
        }
    }

    static class MismatchedMessage {

        @CausalHandler(stage = "notifier", source = "orders")
        void onOrder(Message<String, Integer> m) {
        }
    }

    static class WiderMessage {

        @CausalHandler(stage = "notifier", source = "orders")
        void onOrder(Message<Object, CharSequence> m) {
        }
    }

    static class TwoTicks {

        @CausalHandler(stage = "heartbeat", source = "orders")
        void onOrder(Message<String, String> m) {
        }

        @CausalTick(stage = "heartbeat", every = "1s")
        List<Emission> first(Tick tick) {
            return List.of();
        }

        @CausalTick(stage = "heartbeat", every = "2s")
        List<Emission> second(Tick tick) {
            return List.of();
        }
    }

    static class DifferentStates {

        @CausalFold(stage = "totals", source = "amounts")
        Step<Long> count(Long state, Message<String, Long> m) {
            return Step.of(state);
        }

        @CausalFold(stage = "totals", source = "orders")
        Step<String> remember(String state, Message<String, String> m) {
            return Step.of(m.value());
        }
    }

    static class TotalsStateConfiguration {

        int encoded;

        @Bean
        CausalState<TestShop.Total> totalsState() {
            Codec<TestShop.Total> codec = Codec.of(t -> {
                encoded++;
                return Long.toString(t.sum()).getBytes(StandardCharsets.UTF_8);
            }, b -> new TestShop.Total(Long.parseLong(new String(b, StandardCharsets.UTF_8))));
            return CausalState.of("totals", codec, () -> new TestShop.Total(100));
        }
    }
}
