package io.github.tobyjamesclements.parsley.spring.aot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.aot.hint.predicate.RuntimeHintsPredicates.reflection;

import io.github.tobyjamesclements.parsley.CausalConsumerInterceptor;
import io.github.tobyjamesclements.parsley.CausalProducerInterceptor;
import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.Emission;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Step;
import io.github.tobyjamesclements.parsley.Tick;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.CausalFold;
import io.github.tobyjamesclements.parsley.spring.CausalHandler;
import io.github.tobyjamesclements.parsley.spring.CausalState;
import io.github.tobyjamesclements.parsley.spring.CausalTick;
import io.github.tobyjamesclements.parsley.spring.query.StateReadController;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.DefaultProductionExceptionHandler;
import org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeReference;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.javapoet.ClassName;
import org.springframework.util.ClassUtils;

/**
 * The hints Spring AOT writes for a Parsley application, produced by running Spring's own AOT
 * engine over a context, as {@code spring-boot:process-aot} does: so each hint is pinned together
 * with the way Spring finds it ({@code @Reflective} on the annotations, {@code aot.factories}).
 */
class ParsleyAotHintsTests {

    private static RuntimeHints hints;

    @BeforeAll
    static void processAheadOfTime() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            context.register(Shop.class);
            DefaultGenerationContext generation = new DefaultGenerationContext(
                    new ClassNameGenerator(ClassName.get(Shop.class)), new InMemoryGeneratedFiles());
            new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
            hints = generation.getRuntimeHints();
        }
    }

    @Test
    void everyAnnotatedStageMethodMayBeInvokedReflectively() {
        assertThat(reflection().onMethodInvocation(Stages.class, "onOrder")).accepts(hints);
        assertThat(reflection().onMethodInvocation(Stages.class, "apply")).accepts(hints);
        assertThat(reflection().onMethodInvocation(Stages.class, "tick")).accepts(hints);
        assertThat(reflection().onMethodInvocation(Stages.class, "count")).accepts(hints);
        assertThat(reflection().onMethodInvocation(Stages.class, "helper")).rejects(hints);
    }

    @Test
    void messageKeyAndValueTypesAreBoundForJsonCodecs() {
        assertThat(reflection().onMethodInvocation(OrderCreated.class, "orderId")).accepts(hints);
        assertThat(reflection().onMethodInvocation(CustomerId.class, "value")).accepts(hints);
        assertThat(reflection().onMethodInvocation(PaymentConfirmed.class, "amount")).accepts(hints);
    }

    @Test
    void foldStateIsBoundAndBuiltByItsNoArgConstructor() throws Exception {
        assertThat(reflection().onMethodInvocation(Total.class, "sum")).accepts(hints);
        assertThat(reflection().onConstructorInvocation(Total.class.getDeclaredConstructor())).accepts(hints);
        assertThat(reflection().onConstructorInvocation(Count.class.getDeclaredConstructor())).accepts(hints);
    }

    @Test
    void topicAndCausalStateBeanTypesAreBound() {
        assertThat(reflection().onMethodInvocation(Invoice.class, "number")).accepts(hints);
        assertThat(reflection().onMethodInvocation(Ledger.class, "entries")).accepts(hints);
    }

    @Test
    void classesKafkaCreatesByNameMayBeConstructed() throws Exception {
        for (Class<?> created : List.of(CausalProducerInterceptor.class, CausalConsumerInterceptor.class,
                LogAndFailProcessingExceptionHandler.class, DefaultProductionExceptionHandler.class)) {
            assertThat(reflection().onConstructorInvocation(created.getConstructor())).as(created.getName())
                    .accepts(hints);
        }
    }

    /** Kafka Streams 4.2 and later only; compat/matrix.sh runs the rows with 4.3, CI the row without. */
    @Test
    void theLeavingCloseMayBeCalledWhereKafkaStreamsHasIt() throws Exception {
        boolean present = ClassUtils.isPresent("org.apache.kafka.streams.CloseOptions", null);
        Class<?> options = present ? Class.forName("org.apache.kafka.streams.CloseOptions") : null;
        assertThat(reflection().onType(TypeReference.of("org.apache.kafka.streams.CloseOptions")).test(hints))
                .as("CloseOptions hinted").isEqualTo(present);
        if (present) {
            assertThat(reflection().onMethodInvocation(KafkaStreams.class.getMethod("close", options))).accepts(hints);
            assertThat(reflection().onMethodInvocation(options.getMethod("withTimeout", Duration.class)))
                    .accepts(hints);
        }
    }

    @Test
    void stateReadAnswersAreBoundForJackson() {
        assertThat(reflection().onMethodInvocation(StateReadController.StateAnswer.class, "value")).accepts(hints);
    }

    record OrderCreated(String orderId) {
    }

    record CustomerId(String value) {
    }

    record PaymentConfirmed(long amount) {
    }

    record Invoice(String number) {
    }

    record Ledger(List<String> entries) {
    }

    record Total(long sum) {

        Total() {
            this(0);
        }
    }

    static final class Count {
        Count() {
        }
    }

    /** One method of each kind, and one that is not annotated. */
    static class Stages {

        @CausalHandler(stage = "notifier", source = "orders")
        Emission onOrder(Message<CustomerId, OrderCreated> m) {
            return null;
        }

        @CausalFold(stage = "totals", source = "payments")
        Step<Total> apply(Total total, Message<String, PaymentConfirmed> m) {
            return Step.of(total);
        }

        @CausalTick(stage = "clock", every = "1s")
        List<Emission> tick(Tick tick) {
            return List.of();
        }

        @CausalTick(stage = "counter", every = "1s")
        Step<Count> count(Count count, Tick tick) {
            return Step.of(count);
        }

        void helper() {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Shop {

        @Bean
        Stages stages() {
            return new Stages();
        }

        @Bean
        Topic<String, Invoice> invoices() {
            return Topic.of("invoices", Codec.utf8(), Codec.of(i -> new byte[0], b -> new Invoice("")));
        }

        @Bean
        CausalState<Ledger> ledgerState() {
            return CausalState.of("ledger", Codec.of(l -> new byte[0], b -> new Ledger(List.of())),
                    () -> new Ledger(List.of()));
        }
    }
}
