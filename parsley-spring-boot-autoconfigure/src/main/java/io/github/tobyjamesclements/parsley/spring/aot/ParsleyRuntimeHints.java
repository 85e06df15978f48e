package io.github.tobyjamesclements.parsley.spring.aot;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.util.ClassUtils;

/**
 * Reflection hints for the classes Kafka creates from a class name in a Parsley application: the
 * stamping interceptors that {@code parsley.producer.stamp} adds to {@code interceptor.classes}, and
 * the Kafka Streams exception handlers Parsley enforces by name. Kafka calls their public no-arg
 * constructors. Also the body of a state read ({@code /parsley/state/...}), which Jackson writes.
 * Named by string because parsley-core, Kafka Streams and Spring MVC are optional dependencies of
 * this module; a class that is absent gets no hint.
 */
final class ParsleyRuntimeHints implements RuntimeHintsRegistrar {

    private static final List<String> CREATED_BY_NAME = List.of(
            "io.github.tobyjamesclements.parsley.CausalProducerInterceptor",
            "io.github.tobyjamesclements.parsley.CausalConsumerInterceptor",
            "org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler",
            "org.apache.kafka.streams.errors.DefaultProductionExceptionHandler");

    private static final String STATE_ANSWER =
            "io.github.tobyjamesclements.parsley.spring.query.StateReadController$StateAnswer";

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        for (String name : CREATED_BY_NAME) {
            hints.reflection().registerTypeIfPresent(classLoader, name, MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS);
        }
        if (ClassUtils.isPresent(STATE_ANSWER, classLoader)) {
            new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(),
                    ClassUtils.resolveClassName(STATE_ANSWER, classLoader));
        }
    }
}
