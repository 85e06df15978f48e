package io.github.tobyjamesclements.parsley.spring.aot;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.util.ClassUtils;

/**
 * Reflection hints for the classes Kafka creates from a class name in a Parsley application: the
 * stamping interceptors that {@code parsley.producer.stamp} adds to {@code interceptor.classes}, and
 * the Kafka Streams exception handlers Parsley enforces by name. Kafka calls their public no-arg
 * constructors. Also the body of a state read ({@code /parsley/state/...}), which Jackson writes, and,
 * on Kafka Streams 4.2 and later, the {@code CloseOptions} close that parsley-core finds by
 * reflection to make a closing instance leave its group.
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

    private static final String KAFKA_STREAMS = "org.apache.kafka.streams.KafkaStreams";

    private static final String CLOSE_OPTIONS = "org.apache.kafka.streams.CloseOptions";

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        for (String name : CREATED_BY_NAME) {
            hints.reflection().registerTypeIfPresent(classLoader, name, MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS);
        }
        if (ClassUtils.isPresent(STATE_ANSWER, classLoader)) {
            new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(),
                    ClassUtils.resolveClassName(STATE_ANSWER, classLoader));
        }
        if (ClassUtils.isPresent(CLOSE_OPTIONS, classLoader)) {
            hints.reflection().registerType(TypeReference.of(CLOSE_OPTIONS), MemberCategory.INVOKE_PUBLIC_METHODS)
                    .registerType(TypeReference.of(CLOSE_OPTIONS + "$GroupMembershipOperation"),
                            MemberCategory.ACCESS_PUBLIC_FIELDS)
                    .registerType(TypeReference.of(KAFKA_STREAMS), type -> type.withMethod("close",
                            List.of(TypeReference.of(CLOSE_OPTIONS)), ExecutableMode.INVOKE));
        }
    }
}
