package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.Emission;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import io.github.tobyjamesclements.parsley.Step;
import io.github.tobyjamesclements.parsley.Tick;
import io.github.tobyjamesclements.parsley.spring.CausalFold;
import io.github.tobyjamesclements.parsley.spring.CausalHandler;
import io.github.tobyjamesclements.parsley.spring.CausalTick;
import io.github.tobyjamesclements.parsley.spring.diagnostics.InvalidCausalMethodException;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Tests for {@link CausalMethodScanner}: which signatures of {@code @CausalHandler},
 * {@code @CausalFold} and {@code @CausalTick} methods start, and how a bad one fails startup.
 */
class CausalMethodScannerTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class))
            .withPropertyValues("spring.application.name=shop").withUserConfiguration(TestShop.Topics.class);

    @Test
    void handlersMayReturnAListAnEmissionOrNothing() {
        contextRunner.withBean("handlers", EveryHandlerShape.class).run(context -> {
            Stage stage = context.getBean(Parsley.class).stages().get(0);
            assertThat(stage.sourceTopics()).containsExactlyInAnyOrder("orders", "payments", "amounts");
        });
    }

    @Test
    void ticksMayBeHandlersOrFolds() {
        contextRunner.withBean("ticks", TickShapes.class).run(context -> {
            Parsley parsley = context.getBean(Parsley.class);
            assertThat(parsley.stages()).extracting(s -> s.tickInterval().orElseThrow())
                    .containsExactlyInAnyOrder(Duration.ofMillis(500), Duration.ofMinutes(1));
            assertThat(parsley.stages()).filteredOn(Stage::stateful).extracting(Stage::name).containsExactly("clock");
        });
    }

    @Test
    void handlerWithWrongParameterFailsStartup() {
        contextRunner.withBean("badHandler", WrongParameterHandler.class).run(context -> assertInvalid(context,
                "Invalid @CausalHandler method 'WrongParameterHandler.onOrder(String)' on bean 'badHandler': it must"
                        + " take exactly one parameter of type Message<K, V>",
                "The @CausalHandler method 'WrongParameterHandler.onOrder(String)' on bean 'badHandler' is invalid:"
                        + " it must take exactly one parameter of type Message<K, V>.",
                "Declare one parameter of type Message<K, V>, with K and V the key and value types of topic"
                        + " 'orders'."));
    }

    @Test
    void handlerWithWrongReturnTypeFailsStartup() {
        contextRunner.withBean("badHandler", WrongReturnHandler.class).run(context -> assertInvalid(context,
                "Invalid @CausalHandler method 'WrongReturnHandler.onOrder(Message)' on bean 'badHandler': it must"
                        + " return List<Emission>, Emission or void, not 'String'",
                "The @CausalHandler method 'WrongReturnHandler.onOrder(Message)' on bean 'badHandler' is invalid:"
                        + " it must return List<Emission>, Emission or void, not 'String'.",
                "Change the return type to List<Emission>, Emission or void."));
    }

    @Test
    void handlerReturningAListOfSomethingElseFailsStartup() {
        contextRunner.withBean("badHandler", WrongListHandler.class).run(context -> assertInvalid(context,
                "it must return List<Emission>, Emission or void, not 'List<String>'",
                "The @CausalHandler method 'WrongListHandler.onOrder(Message)' on bean 'badHandler' is invalid:"
                        + " it must return List<Emission>, Emission or void, not 'List<String>'.",
                "Change the return type to List<Emission>, Emission or void."));
    }

    @Test
    void foldWhoseStepDoesNotMatchItsStateFailsStartup() {
        contextRunner.withBean("badFold", MismatchedFold.class).run(context -> assertInvalid(context,
                "Invalid @CausalFold method 'MismatchedFold.add(Long, Message)' on bean 'badFold': its state"
                        + " parameter 'Long' and its Step type 'String' must be the same",
                "The @CausalFold method 'MismatchedFold.add(Long, Message)' on bean 'badFold' is invalid: its state"
                        + " parameter 'Long' and its Step type 'String' must be the same.",
                "Change the return type to 'Step<Long>', or the state parameter to 'String'."));
    }

    @Test
    void foldWithoutStateParameterFailsStartup() {
        contextRunner.withBean("badFold", StatelessFold.class).run(context -> assertInvalid(context,
                "it must take (S state, Message<K, V> message)",
                "The @CausalFold method 'StatelessFold.add(Message)' on bean 'badFold' is invalid: it must take"
                        + " (S state, Message<K, V> message).",
                "Declare the parameters as (S state, Message<K, V> message), with K and V the key and value types"
                        + " of topic 'amounts'."));
    }

    @Test
    void foldWithPrimitiveStateFailsStartup() {
        contextRunner.withBean("badFold", PrimitiveFold.class).run(context -> assertInvalid(context,
                "its state parameter must be a reference type, not 'long'",
                "The @CausalFold method 'PrimitiveFold.add(long, Message)' on bean 'badFold' is invalid: its state"
                        + " parameter must be a reference type, not 'long'.",
                "Use a reference type for the state, such as 'Long'."));
    }

    @Test
    void tickWithBadIntervalFailsStartup() {
        contextRunner.withBean("badTick", BadIntervalTick.class).run(context -> assertInvalid(context,
                "Invalid @CausalTick method 'BadIntervalTick.onTick(Tick)' on bean 'badTick': its interval"
                        + " every='soon' is not a positive duration",
                "The @CausalTick method 'BadIntervalTick.onTick(Tick)' on bean 'badTick' is invalid: its interval"
                        + " every='soon' is not a positive duration.",
                "Set every to a positive duration such as '500ms', '5s' or 'PT1M'."));
    }

    @Test
    void tickWithZeroIntervalFailsStartup() {
        contextRunner.withBean("badTick", ZeroIntervalTick.class).run(context -> assertInvalid(context,
                "its interval every='0s' is not a positive duration",
                "The @CausalTick method 'ZeroIntervalTick.onTick(Tick)' on bean 'badTick' is invalid: its interval"
                        + " every='0s' is not a positive duration.",
                "Set every to a positive duration such as '500ms', '5s' or 'PT1M'."));
    }

    @Test
    void tickWithWrongParameterFailsStartup() {
        contextRunner.withBean("badTick", WrongParameterTick.class).run(context -> assertInvalid(context,
                "it must take (Tick tick) or (S state, Tick tick)",
                "The @CausalTick method 'WrongParameterTick.onTick(Duration)' on bean 'badTick' is invalid: it must"
                        + " take (Tick tick) or (S state, Tick tick).",
                "Declare the parameters as (Tick tick), or as (S state, Tick tick) for a tick fold."));
    }

    @Test
    void stageNameOutsideTheAllowedAlphabetFailsStartup() {
        contextRunner.withBean("badStage", BadStageName.class).run(context -> assertInvalid(context,
                "its stage name 'my stage!' does not match [a-zA-Z0-9-]+",
                "The @CausalHandler method 'BadStageName.onOrder(Message)' on bean 'badStage' is invalid: its stage"
                        + " name 'my stage!' does not match [a-zA-Z0-9-]+.",
                "Name the stage with letters, digits and hyphens only, such as 'my-stage'."));
    }

    private static void assertInvalid(AssertableApplicationContext context, String message, String description,
            String action) {
        assertThat(context).hasFailed();
        assertThat(context.getStartupFailure()).rootCause().isInstanceOf(InvalidCausalMethodException.class)
                .hasMessageContaining(message);
        FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
        assertThat(analysis.getDescription()).isEqualTo(description);
        assertThat(analysis.getAction()).isEqualTo(action);
    }

    static class EveryHandlerShape {

        @CausalHandler(stage = "shapes", source = "orders", sinks = "notifications")
        List<Emission> list(Message<String, String> m) {
            return List.of(TestShop.NOTIFICATIONS.send(m.key(), m.value()));
        }

        @CausalHandler(stage = "shapes", source = "payments", sinks = "notifications")
        Emission one(Message<String, String> m) {
            return TestShop.NOTIFICATIONS.send(m.key(), m.value());
        }

        @CausalHandler(stage = "shapes", source = "amounts")
        void none(Message<String, Long> m) {
        }
    }

    static class TickShapes {

        @CausalTick(stage = "heartbeat", every = "500ms", sinks = "notifications")
        Emission beat(Tick tick) {
            return TestShop.NOTIFICATIONS.send("beat", Long.toString(tick.timestamp()));
        }

        @CausalHandler(stage = "heartbeat", source = "orders")
        void onOrder(Message<String, String> m) {
        }

        @CausalTick(stage = "clock", every = "PT1M")
        Step<Long> count(@Nullable Long ticks, Tick tick) {
            return Step.of(ticks == null ? 1 : ticks + 1);
        }

        @CausalFold(stage = "clock", source = "amounts")
        Step<Long> add(@Nullable Long ticks, Message<String, Long> m) {
            return Step.of(ticks);
        }
    }

    static class WrongParameterHandler {

        @CausalHandler(stage = "notifier", source = "orders", sinks = "notifications")
        List<Emission> onOrder(String value) {
            return List.of();
        }
    }

    static class WrongReturnHandler {

        @CausalHandler(stage = "notifier", source = "orders", sinks = "notifications")
        String onOrder(Message<String, String> m) {
            return m.value();
        }
    }

    static class WrongListHandler {

        @CausalHandler(stage = "notifier", source = "orders", sinks = "notifications")
        List<String> onOrder(Message<String, String> m) {
            return List.of(m.value());
        }
    }

    static class MismatchedFold {

        @CausalFold(stage = "totals", source = "amounts", sinks = "totals")
        Step<String> add(Long state, Message<String, Long> m) {
            return Step.of("x");
        }
    }

    static class StatelessFold {

        @CausalFold(stage = "totals", source = "amounts", sinks = "totals")
        Step<Long> add(Message<String, Long> m) {
            return Step.of(m.value());
        }
    }

    static class PrimitiveFold {

        @CausalFold(stage = "totals", source = "amounts", sinks = "totals")
        Step<Long> add(long state, Message<String, Long> m) {
            return Step.of(state + m.value());
        }
    }

    static class BadIntervalTick {

        @CausalTick(stage = "heartbeat", every = "soon")
        void onTick(Tick tick) {
        }
    }

    static class ZeroIntervalTick {

        @CausalTick(stage = "heartbeat", every = "0s")
        void onTick(Tick tick) {
        }
    }

    static class WrongParameterTick {

        @CausalTick(stage = "heartbeat", every = "1s")
        void onTick(Duration elapsed) {
        }
    }

    static class BadStageName {

        @CausalHandler(stage = "my stage!", source = "orders")
        void onOrder(Message<String, String> m) {
        }
    }
}
