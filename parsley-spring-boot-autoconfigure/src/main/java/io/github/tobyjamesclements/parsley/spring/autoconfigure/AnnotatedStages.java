package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.Fold;
import io.github.tobyjamesclements.parsley.Handler;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import io.github.tobyjamesclements.parsley.TickFold;
import io.github.tobyjamesclements.parsley.TickHandler;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.CausalState;
import io.github.tobyjamesclements.parsley.spring.ParsleyCodecs;
import io.github.tobyjamesclements.parsley.spring.diagnostics.DuplicateSourceException;
import io.github.tobyjamesclements.parsley.spring.diagnostics.InvalidCausalMethodException;
import io.github.tobyjamesclements.parsley.spring.diagnostics.TopicTypeMismatchException;
import io.github.tobyjamesclements.parsley.spring.diagnostics.UnknownTopicException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Constructor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.ResolvableType;

/**
 * Composes validated annotated methods into stages and one {@link Parsley}: methods sharing a
 * stage name form one stage, every named topic must be a {@code Topic} bean whose types fit, and
 * within a stage each source topic belongs to one method (several stages may consume one topic). {@code parsley.dead-letter-topic} sets the
 * application's dead-letter topic.
 */
final class AnnotatedStages {

    private final ConfigurableListableBeanFactory beanFactory;
    private final Map<String, Topic<?, ?>> topics = new TreeMap<>();
    private final Map<String, String> topicBeans = new TreeMap<>();
    private final Map<String, CausalState<?>> states = new TreeMap<>();
    private final @Nullable ParsleyCodecs codecs;
    private final ParsleyProperties properties;

    AnnotatedStages(ConfigurableListableBeanFactory beanFactory, @Nullable ParsleyCodecs codecs,
            ParsleyProperties properties) {
        this.beanFactory = beanFactory;
        this.codecs = codecs;
        this.properties = properties;
        beanFactory.getBeansOfType(Topic.class).forEach((bean, topic) -> {
            topics.put(topic.name(), topic);
            topicBeans.put(topic.name(), bean);
        });
        beanFactory.getBeansOfType(CausalState.class).values().forEach(s -> states.put(s.stage(), s));
    }

    Parsley compose(String applicationId, List<CausalMethod> methods) {
        Map<String, List<CausalMethod>> byStage = new LinkedHashMap<>();
        Map<List<String>, CausalMethod> sources = new HashMap<>();
        for (CausalMethod m : methods) {
            byStage.computeIfAbsent(m.stage(), s -> new ArrayList<>()).add(m);
            if (m.source() != null) {
                CausalMethod previous = sources.putIfAbsent(List.of(m.stage(), m.source()), m);
                if (previous != null) {
                    throw new DuplicateSourceException(m.source(), where(previous), where(m));
                }
                checkTypes(m, topic(m, m.source()));
            }
            m.sinks().forEach(s -> topic(m, s));
        }
        List<Stage> stages = new ArrayList<>();
        byStage.forEach((name, list) -> stages.add(stage(name, list)));
        Parsley parsley = Parsley.named(applicationId, stages.toArray(Stage[]::new));
        String deadLetters = properties.getDeadLetterTopic();
        return deadLetters == null || deadLetters.isBlank() ? parsley : parsley.deadLetterTopic(deadLetters.trim());
    }

    /** A stage builder with the stage's settings: its 'parsley.stages.<name>.*' overrides, else the global ones. */
    private Stage.Builder named(String name) {
        ParsleyProperties.StageSettings settings = properties.getStages().get(name);
        Duration truncation = settings != null && settings.getTruncationInterval() != null
                ? settings.getTruncationInterval() : properties.getTruncationInterval();
        Duration warning = settings != null && settings.getHoldWarningAfter() != null
                ? settings.getHoldWarningAfter() : properties.getHoldWarningAfter();
        int maxStampBytes = settings != null && settings.getMaxStampBytes() != null
                ? settings.getMaxStampBytes() : properties.getMaxStampBytes();
        return Stage.named(name).truncationInterval(truncation).holdWarningAfter(warning).maxStampBytes(maxStampBytes);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Stage stage(String name, List<CausalMethod> methods) {
        Set<Topic<?, ?>> sinks = new LinkedHashSet<>();
        methods.forEach(m -> m.sinks().forEach(s -> sinks.add(topics.get(s))));
        CausalMethod tick = singleTick(methods);
        CausalMethod stateful = methods.stream().filter(m -> m.kind().stateful()).findFirst().orElse(null);
        if (stateful == null) {
            Stage.Builder b = named(name);
            for (CausalMethod m : methods) {
                if (m.kind() == CausalMethod.Kind.HANDLER) {
                    b.on((Topic) topics.get(m.source()), (Handler) msg -> m.emissions(msg));
                }
            }
            if (tick != null) {
                b.ticks(tick.every(), (TickHandler) t -> tick.emissions(t));
            }
            return b.into(sinks.toArray(Topic[]::new)).build();
        }
        Stage.Stateful<Object> b = named(name).state(stateCodec(name, stateful, methods), stateInitial(name, stateful, methods));
        for (CausalMethod m : methods) {
            if (m.kind() == CausalMethod.Kind.HANDLER) {
                b.on((Topic) topics.get(m.source()), (Handler) msg -> m.emissions(msg));
            } else if (m.kind() == CausalMethod.Kind.FOLD) {
                b.on((Topic) topics.get(m.source()), (Fold<Object, Object, Object>) (s, msg) -> m.step(s, msg));
            }
        }
        if (tick != null && tick.kind() == CausalMethod.Kind.TICK_FOLD) {
            b.ticks(tick.every(), (TickFold<Object>) (s, t) -> tick.step(s, t));
        } else if (tick != null) {
            b.ticks(tick.every(), (TickHandler) t -> tick.emissions(t));
        }
        return b.into(sinks.toArray(Topic[]::new)).build();
    }

    private static @Nullable CausalMethod singleTick(List<CausalMethod> methods) {
        CausalMethod tick = null;
        for (CausalMethod m : methods) {
            if (m.kind() == CausalMethod.Kind.TICK || m.kind() == CausalMethod.Kind.TICK_FOLD) {
                if (tick != null) {
                    throw invalid(m, "stage '" + m.stage() + "' already has the tick method '" + tick.description()
                            + "'", "Keep one @CausalTick method in stage '" + m.stage() + "': merge the two, or move"
                            + " one to another stage.");
                }
                tick = m;
            }
        }
        return tick;
    }

    @SuppressWarnings("unchecked")
    private Codec<Object> stateCodec(String stage, CausalMethod first, List<CausalMethod> methods) {
        Class<?> type = first.stateType().resolve();
        for (CausalMethod m : methods) {
            if (m.kind().stateful() && m.stateType().resolve() != type) {
                throw invalid(m, "its state type '" + CausalMethodScanner.simpleName(m.stateType().toString())
                        + "' differs from '" + type.getSimpleName() + "' of '" + first.description()
                        + "', and all folds of stage '" + stage + "' share one state type",
                        "Give every fold of stage '" + stage + "' the state type '" + type.getSimpleName() + "'.");
            }
        }
        CausalState<?> declared = states.get(stage);
        if (declared != null) {
            return (Codec<Object>) declared.codec();
        }
        if (codecs == null) {
            throw invalid(first, "stage '" + stage + "' needs a state codec, and no JSON mapper is available",
                    "Add spring-boot-jackson to the classpath, or declare a CausalState bean for stage '" + stage
                            + "'.");
        }
        return (Codec<Object>) codecs.json(type);
    }

    @SuppressWarnings("unchecked")
    private Supplier<Object> stateInitial(String stage, CausalMethod first, List<CausalMethod> methods) {
        CausalState<?> declared = states.get(stage);
        if (declared != null) {
            return (Supplier<Object>) declared.initial();
        }
        Class<?> type = first.stateType().resolve();
        Constructor<?> noArg;
        try {
            noArg = type.getDeclaredConstructor();
        } catch (NoSuchMethodException e) {
            CausalMethod notNullable = methods.stream().filter(m -> m.kind().stateful() && !startsFromNull(m))
                    .findFirst().orElse(null);
            if (notNullable == null) {
                return () -> null;
            }
            String name = type.getSimpleName();
            throw invalid(notNullable, "its state type '" + name + "' has no no-arg constructor and stage '" + stage
                    + "' has no CausalState bean, so the first record of each key would find no state",
                    "Give '" + name + "' a no-arg constructor that builds the initial state, declare a"
                            + " CausalState bean for stage '" + stage + "', or annotate the state parameter"
                            + " @Nullable to start each key from null.");
        }
        noArg.setAccessible(true);
        return () -> {
            try {
                return noArg.newInstance();
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("Cannot create the initial state of stage '" + stage + "' with "
                        + noArg, e);
            }
        };
    }

    /**
     * Whether the state parameter is marked nullable, by any annotation named {@code Nullable}: every
     * stateful method of a stage whose state has no initial value must say it handles null.
     */
    private static boolean startsFromNull(CausalMethod m) {
        Stream<Annotation> annotations = Stream.concat(
                Arrays.stream(m.method().getAnnotatedParameterTypes()[0].getAnnotations()),
                Arrays.stream(m.method().getParameterAnnotations()[0]));
        return annotations.anyMatch(a -> a.annotationType().getSimpleName().equals("Nullable"));
    }

    private Topic<?, ?> topic(CausalMethod m, String name) {
        Topic<?, ?> t = topics.get(name);
        if (t == null) {
            throw new UnknownTopicException(m.beanName(), CausalMethodScanner.describe(m.method()), name,
                    List.copyOf(topics.keySet()));
        }
        return t;
    }

    private void checkTypes(CausalMethod m, Topic<?, ?> topic) {
        ResolvableType declared = topicType(topicBeans.get(topic.name()));
        int messageIndex = m.kind() == CausalMethod.Kind.FOLD ? 1 : 0;
        ResolvableType message = ResolvableType.forMethodParameter(m.method(), messageIndex).as(Message.class);
        for (int i = 0; i < 2; i++) {
            ResolvableType wanted = message.getGeneric(i);
            ResolvableType actual = declared.getGeneric(i);
            if (wanted.resolve() != null && actual.resolve() != null && !wanted.isAssignableFrom(actual)) {
                throw new TopicTypeMismatchException(m.beanName(), CausalMethodScanner.describe(m.method()),
                        topic.name(), CausalMethodScanner.simpleName(message.toString()),
                        CausalMethodScanner.simpleName(declared.toString()));
            }
        }
    }

    private ResolvableType topicType(String beanName) {
        BeanDefinition bd = beanFactory.getMergedBeanDefinition(beanName);
        ResolvableType type = bd instanceof RootBeanDefinition root ? root.getResolvableType() : ResolvableType.NONE;
        return type.as(Topic.class);
    }

    private static String where(CausalMethod m) {
        return "stage '" + m.stage() + "' (" + m.beanName() + "." + m.method().getName() + ")";
    }

    private static InvalidCausalMethodException invalid(CausalMethod m, String rule, String fix) {
        return new InvalidCausalMethodException(m.beanName(), CausalMethodScanner.describe(m.method()),
                m.kind().annotation, rule, fix);
    }
}
