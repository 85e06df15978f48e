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
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Tests for {@link CausalAttributes} through the auto-configuration: every String attribute of
 * {@code @CausalHandler}, {@code @CausalFold} and {@code @CausalTick} takes {@code ${...}}
 * placeholders (with defaults) and {@code #{...}} expressions, by spring-kafka's rules for
 * {@code @KafkaListener}, and a placeholder nothing defines fails startup with a failure analysis.
 */
class CausalAttributesTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class,
                    KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class))
            .withPropertyValues("spring.application.name=shop").withUserConfiguration(TestShop.Topics.class);

    @Test
    void placeholdersResolveAgainstTheEnvironment() {
        contextRunner.withPropertyValues("shop.stage=billing", "shop.topics.orders=orders",
                "shop.topics.out=notifications").withBean("handler", PlaceholderHandler.class).run(context -> {
                    Stage stage = context.getBean(Parsley.class).stages().get(0);
                    assertThat(stage.name()).isEqualTo("billing");
                    assertThat(stage.sourceTopics()).containsExactly("orders");
                    assertThat(stage.sinkTopics()).containsExactly("notifications");
                });
    }

    @Test
    void aPlaceholderFallsBackToItsDefault() {
        contextRunner.withBean("handler", PlaceholderHandler.class).withPropertyValues("shop.stage=billing",
                "shop.topics.out=notifications").run(context -> assertThat(
                        context.getBean(Parsley.class).stages().get(0).sourceTopics()).containsExactly("payments"));
    }

    @Test
    void expressionsResolveThroughTheBeanFactory() {
        contextRunner.withPropertyValues("shop.fold-stage=Totals").withBean("fold", ExpressionFold.class)
                .run(context -> {
                    Stage stage = context.getBean(Parsley.class).stages().get(0);
                    assertThat(stage.name()).isEqualTo("totals");
                    assertThat(stage.sourceTopics()).containsExactly("amounts");
                    assertThat(stage.sinkTopics()).containsExactly("totals");
                });
    }

    @Test
    void anArrayElementMayYieldSeveralNames() {
        contextRunner.withPropertyValues("shop.sinks=notifications,totals").withBean("handler", ManySinks.class)
                .run(context -> assertThat(context.getBean(Parsley.class).stages().get(0).sinkTopics())
                        .containsExactlyInAnyOrder("notifications", "totals", "amounts"));
    }

    @Test
    void aPlaceholderWithCommasStaysOneName() {
        contextRunner.withPropertyValues("shop.stage=billing", "shop.topics.orders=orders",
                "shop.topics.out=notifications,totals").withBean("handler", PlaceholderHandler.class)
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(FailureAnalyses.of(context.getStartupFailure()).getDescription())
                            .contains("names topic 'notifications,totals', but no Topic bean is declared for it");
                });
    }

    @Test
    void aTickIntervalTakesAPlaceholder() {
        contextRunner.withPropertyValues("shop.heartbeat=750ms").withBean("tick", PlaceholderTick.class)
                .run(context -> assertThat(context.getBean(Parsley.class).stages().get(0).tickInterval())
                        .contains(Duration.ofMillis(750)));
    }

    @Test
    void anUnresolvablePlaceholderFailsStartupNamingTheBeanMethodAttributeAndProperty() {
        contextRunner.withPropertyValues("shop.topics.orders=orders", "shop.topics.out=notifications")
                .withBean("handler", PlaceholderHandler.class).run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessage("Could not resolve placeholder"
                            + " 'shop.stage' in value \"${shop.stage}\"");
                    FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
                    assertThat(analysis.getDescription()).isEqualTo("The @CausalHandler method"
                            + " 'PlaceholderHandler.onOrder(Message)' on bean 'handler' has stage='${shop.stage}', but"
                            + " no property source defines 'shop.stage' and the placeholder has no default.");
                    assertThat(analysis.getAction()).isEqualTo("Define the property 'shop.stage' (in"
                            + " application.properties, an environment variable or a command-line argument), or give"
                            + " the placeholder a default, such as '${shop.stage:name}'.");
                });
    }

    @Test
    void anUnresolvablePlaceholderFailsStartupWithoutBootsPlaceholderConfigurer() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class))
                .withPropertyValues("spring.application.name=shop").withUserConfiguration(TestShop.Topics.class)
                .withBean("tick", PlaceholderTick.class).run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(FailureAnalyses.of(context.getStartupFailure()).getDescription()).isEqualTo(
                            "The @CausalTick method 'PlaceholderTick.onTick(Tick)' on bean 'tick' has"
                                    + " every='${shop.heartbeat}', but no property source defines 'shop.heartbeat'"
                                    + " and the placeholder has no default.");
                });
    }

    @Test
    void anExpressionYieldingNoStringFailsStartup() {
        contextRunner.withBean("handler", NumberStage.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(InvalidCausalMethodException.class);
            FailureAnalysis analysis = FailureAnalyses.of(context.getStartupFailure());
            assertThat(analysis.getDescription()).isEqualTo("The @CausalHandler method 'NumberStage.onOrder(Message)'"
                    + " on bean 'handler' is invalid: its attribute stage='#{6 * 7}' resolves to a Integer '42', not a"
                    + " String.");
            assertThat(analysis.getAction()).isEqualTo("Make the expression in stage yield one String.");
        });
    }

    static class PlaceholderHandler {

        @CausalHandler(stage = "${shop.stage}", source = "${shop.topics.orders:payments}", sinks = "${shop.topics.out}")
        List<Emission> onOrder(Message<String, String> m) {
            return List.of();
        }
    }

    static class ExpressionFold {

        @CausalFold(stage = "#{'${shop.fold-stage}'.toLowerCase()}", source = "#{'amo' + 'unts'}",
                sinks = "#{new String[] {'totals'}}")
        Step<TestShop.Total> add(TestShop.Total state, Message<String, Long> m) {
            return Step.of(new TestShop.Total(state.sum() + m.value()));
        }
    }

    static class ManySinks {

        @CausalHandler(stage = "fan", source = "orders",
                sinks = {"#{'${shop.sinks}'.split(',')}", "#{T(java.util.List).of('amounts')}"})
        List<Emission> onOrder(Message<String, String> m) {
            return List.of();
        }
    }

    static class PlaceholderTick {

        @CausalHandler(stage = "heartbeat", source = "orders")
        void onOrder(Message<String, String> m) {
        }

        @CausalTick(stage = "heartbeat", every = "${shop.heartbeat}")
        void onTick(Tick tick) {
        }
    }

    static class NumberStage {

        @CausalHandler(stage = "#{6 * 7}", source = "orders")
        void onOrder(Message<String, String> m) {
        }
    }
}
