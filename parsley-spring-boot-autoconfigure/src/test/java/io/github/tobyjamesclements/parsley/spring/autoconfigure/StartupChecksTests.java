package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.tobyjamesclements.parsley.Emission;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Step;
import io.github.tobyjamesclements.parsley.spring.CausalFold;
import io.github.tobyjamesclements.parsley.spring.CausalHandler;
import io.github.tobyjamesclements.parsley.spring.diagnostics.InvalidCausalMethodException;
import io.github.tobyjamesclements.parsley.spring.diagnostics.UnknownTopicException;
import io.github.tobyjamesclements.parsley.spring.test.ParsleyTestHarness;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Tests for the mistakes startup catches before the first record: a fold state nothing can create,
 * a mistyped topic name (with a suggestion), and, at the first emission, an emission to a topic the
 * annotated method did not list in its sinks.
 */
class StartupChecksTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class))
            .withPropertyValues("spring.application.name=shop").withUserConfiguration(TestShop.Topics.class);

    @Test
    void foldStateWithoutNoArgConstructorOrCausalStateFailsStartup() {
        contextRunner.withBean("balances", RecordState.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(InvalidCausalMethodException.class);
            FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
            assertThat(analysis.getDescription()).isEqualTo("The @CausalFold method 'RecordState.add(Sum, Message)' on"
                    + " bean 'balances' is invalid: its state type 'Sum' has no no-arg constructor and stage"
                    + " 'balances' has no CausalState bean, so the first record of each key would find no state.");
            assertThat(analysis.getAction()).isEqualTo("Give 'Sum' a no-arg constructor that builds the initial"
                    + " state, declare a CausalState bean for stage 'balances', or annotate the state parameter"
                    + " @Nullable to start each key from null.");
        });
    }

    @Test
    void foldStateMarkedNullableStartsFromNull() {
        contextRunner.withBean("balances", NullableState.class).run(context -> {
            assertThat(context).hasNotFailed();
            try (ParsleyTestHarness harness = ParsleyTestHarness.of(context.getBean(Parsley.class))) {
                harness.pipe(TestShop.AMOUNTS, "alice", 5L);
                harness.pipe(TestShop.AMOUNTS, "alice", 7L);
                assertThat(harness.read(TestShop.TOTALS)).extracting(Message::value).containsExactly(5L, 12L);
            }
        });
    }

    @Test
    void mistypedTopicNameSuggestsTheDeclaredOne() {
        contextRunner.withBean("notifier", MistypedSource.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(UnknownTopicException.class);
            FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
            assertThat(analysis.getDescription()).isEqualTo("The method 'MistypedSource.onPayment(Message)' on bean"
                    + " 'notifier' names topic 'paymnets', but no Topic bean is declared for it. Declared topics:"
                    + " 'amounts', 'notifications', 'orders', 'payments', 'totals'. Did you mean 'payments'?");
        });
    }

    @Test
    void emissionOutsideTheMethodsSinksNamesTheMethodAndTheAnnotationToChange() {
        contextRunner.withBean("notifier", UndeclaredSink.class).run(context -> {
            assertThat(context).hasNotFailed();
            try (ParsleyTestHarness harness = ParsleyTestHarness.of(context.getBean(Parsley.class))) {
                harness.pipe(TestShop.PAYMENTS, "c1", "p1");
                assertThat(harness.read(TestShop.NOTIFICATIONS)).extracting(Message::value).containsExactly("p1");
                assertThatThrownBy(() -> harness.pipe(TestShop.ORDERS, "c1", "o1")).rootCause()
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("@CausalHandler method 'UndeclaredSink.onOrder' on bean 'notifier' emitted to"
                                + " topic 'notifications', which is not among its sinks []; add 'notifications' to"
                                + " sinks of the @CausalHandler annotation");
            }
        });
    }

    /** A natural record as fold state: nothing says what a key's first state is. */
    static class RecordState {

        record Sum(long value) {
        }

        @CausalFold(stage = "balances", source = "amounts", sinks = "totals")
        Step<Sum> add(Sum state, Message<String, Long> m) {
            return Step.of(new Sum(state.value() + m.value()));
        }
    }

    /** A fold that says its state starts from null. */
    static class NullableState {

        @CausalFold(stage = "balances", source = "amounts", sinks = "totals")
        Step<Long> add(@Nullable Long state, Message<String, Long> m) {
            long next = (state == null ? 0 : state) + m.value();
            return Step.of(next, TestShop.TOTALS.send(m.key(), next));
        }
    }

    /** A handler whose source has a typo. */
    static class MistypedSource {

        @CausalHandler(stage = "notifier", source = "paymnets")
        void onPayment(Message<String, String> m) {
        }
    }

    /**
     * Two handlers of one stage: the stage as a whole may emit to notifications, but only
     * {@code onPayment} lists it.
     */
    static class UndeclaredSink {

        @CausalHandler(stage = "notifier", source = "payments", sinks = "notifications")
        Emission onPayment(Message<String, String> m) {
            return TestShop.NOTIFICATIONS.send(m.key(), m.value());
        }

        @CausalHandler(stage = "notifier", source = "orders")
        List<Emission> onOrder(Message<String, String> m) {
            return List.of(TestShop.NOTIFICATIONS.send(m.key(), m.value()));
        }
    }
}
