package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.Emission;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Stage;
import io.github.tobyjamesclements.parsley.Step;
import io.github.tobyjamesclements.parsley.Tick;
import io.github.tobyjamesclements.parsley.spring.CausalFold;
import io.github.tobyjamesclements.parsley.spring.CausalHandler;
import io.github.tobyjamesclements.parsley.spring.CausalTick;
import io.github.tobyjamesclements.parsley.spring.diagnostics.InvalidCausalMethodException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Finds {@link CausalHandler}, {@link CausalFold} and {@link CausalTick} methods on the beans of a
 * context, resolves their attributes ({@link CausalAttributes}: placeholders and expressions) and
 * validates their signatures, failing with {@link InvalidCausalMethodException}.
 */
final class CausalMethodScanner {

    private static final List<Class<? extends Annotation>> ANNOTATIONS = List.of(CausalHandler.class,
            CausalFold.class, CausalTick.class);

    private CausalMethodScanner() {
    }

    /** Whether any bean's class declares an annotated method; instantiates nothing. */
    static boolean anyAnnotated(ConfigurableListableBeanFactory beanFactory) {
        for (String name : beanFactory.getBeanDefinitionNames()) {
            Class<?> type = typeOf(beanFactory, name);
            if (type != null && !annotatedMethods(type).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Every annotated method, its attributes resolved, validated, in bean then method-name order. */
    static List<CausalMethod> scan(ConfigurableListableBeanFactory beanFactory) {
        CausalAttributes attributes = new CausalAttributes(beanFactory);
        List<CausalMethod> out = new ArrayList<>();
        for (String name : beanFactory.getBeanDefinitionNames()) {
            Class<?> type = typeOf(beanFactory, name);
            if (type == null) {
                continue;
            }
            Map<Method, Annotation> methods = annotatedMethods(type);
            if (methods.isEmpty()) {
                continue;
            }
            Object bean = beanFactory.getBean(name);
            methods.entrySet().stream().sorted(Comparator.comparing(e -> e.getKey().toGenericString()))
                    .forEach(e -> out.add(validate(attributes, name, bean, e.getKey(), e.getValue())));
        }
        return out;
    }

    private static @Nullable Class<?> typeOf(ConfigurableListableBeanFactory beanFactory, String name) {
        if (beanFactory.containsBeanDefinition(name)
                && beanFactory.getBeanDefinition(name).getRole() == BeanDefinition.ROLE_INFRASTRUCTURE) {
            return null;
        }
        Class<?> type = beanFactory.getType(name, false);
        return type == null ? null : ClassUtils.getUserClass(type);
    }

    private static Map<Method, Annotation> annotatedMethods(Class<?> type) {
        return MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<Annotation>) m -> {
            for (Class<? extends Annotation> a : ANNOTATIONS) {
                Annotation found = AnnotatedElementUtils.findMergedAnnotation(m, a);
                if (found != null) {
                    return found;
                }
            }
            return null;
        });
    }

    private static CausalMethod validate(CausalAttributes attributes, String beanName, Object bean, Method method,
            Annotation annotation) {
        Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
        ReflectionUtils.makeAccessible(invocable);
        if (annotation instanceof CausalHandler h) {
            CausalAttributes.Of a = attributes.of(beanName, method, "@CausalHandler");
            return handler(beanName, bean, method, invocable, new Names(a.one("stage", h.stage()),
                    a.one("source", h.source()), a.many("sinks", h.sinks())));
        }
        if (annotation instanceof CausalFold f) {
            CausalAttributes.Of a = attributes.of(beanName, method, "@CausalFold");
            return fold(beanName, bean, method, invocable, new Names(a.one("stage", f.stage()),
                    a.one("source", f.source()), a.many("sinks", f.sinks())));
        }
        CausalTick t = (CausalTick) annotation;
        CausalAttributes.Of a = attributes.of(beanName, method, "@CausalTick");
        return tick(beanName, bean, method, invocable, new Names(a.one("stage", t.stage()), null,
                a.many("sinks", t.sinks())), a.one("every", t.every()));
    }

    /** The resolved names an annotation gives: its stage, its source (none for a tick) and its sinks. */
    private record Names(String stage, @Nullable String source, List<String> sinks) {
    }

    private static CausalMethod handler(String beanName, Object bean, Method method, Method invocable, Names n) {
        Class<?>[] params = method.getParameterTypes();
        Rules r = new Rules(beanName, method, "@CausalHandler");
        r.stageName(n.stage());
        r.check(params.length == 1 && params[0] == Message.class,
                "it must take exactly one parameter of type Message<K, V>",
                "Declare one parameter of type Message<K, V>, with K and V the key and value types of topic '"
                        + n.source() + "'.");
        r.emissionsReturn();
        return new CausalMethod(beanName, bean, invocable, CausalMethod.Kind.HANDLER, n.stage(), n.source(),
                n.sinks(), null, null);
    }

    private static CausalMethod fold(String beanName, Object bean, Method method, Method invocable, Names n) {
        Class<?>[] params = method.getParameterTypes();
        Rules r = new Rules(beanName, method, "@CausalFold");
        r.stageName(n.stage());
        r.check(params.length == 2 && params[1] == Message.class,
                "it must take (S state, Message<K, V> message)",
                "Declare the parameters as (S state, Message<K, V> message), with K and V the key and value"
                        + " types of topic '" + n.source() + "'.");
        return new CausalMethod(beanName, bean, invocable, CausalMethod.Kind.FOLD, n.stage(), n.source(),
                n.sinks(), null, r.stepOfState());
    }

    private static CausalMethod tick(String beanName, Object bean, Method method, Method invocable, Names n,
            String interval) {
        Class<?>[] params = method.getParameterTypes();
        Rules r = new Rules(beanName, method, "@CausalTick");
        r.stageName(n.stage());
        Duration every = r.interval(interval);
        String tickFix = "Declare the parameters as (Tick tick), or as (S state, Tick tick) for a tick fold.";
        if (params.length == 1) {
            r.check(params[0] == Tick.class, "it must take (Tick tick) or (S state, Tick tick)", tickFix);
            r.emissionsReturn();
            return new CausalMethod(beanName, bean, invocable, CausalMethod.Kind.TICK, n.stage(), null, n.sinks(),
                    every, null);
        }
        r.check(params.length == 2 && params[1] == Tick.class, "it must take (Tick tick) or (S state, Tick tick)",
                tickFix);
        return new CausalMethod(beanName, bean, invocable, CausalMethod.Kind.TICK_FOLD, n.stage(), null, n.sinks(),
                every, r.stepOfState());
    }

    /** Signature rules, each failing with the bean, the method, the rule broken and the fix. */
    private record Rules(String beanName, Method method, String annotation) {

        void check(boolean ok, String rule, String fix) {
            if (!ok) {
                throw new InvalidCausalMethodException(beanName, describe(method), annotation, rule, fix);
            }
        }

        void stageName(String stage) {
            check(Stage.isValidName(stage), "its stage name '" + stage + "' does not match " + Stage.NAME_RULE,
                    "Name the stage with letters, digits and hyphens only, such as '"
                            + suggestion(stage) + "'.");
        }

        /**
         * The name with each character the core's rule refuses turned into a hyphen, runs of hyphens
         * collapsed and end hyphens dropped. Asks the core character by character rather than
         * copying its character class.
         */
        private static String suggestion(String stage) {
            StringBuilder out = new StringBuilder();
            stage.codePoints().mapToObj(Character::toString)
                    .forEach(c -> out.append(Stage.isValidName(c) ? c : "-"));
            String name = out.toString().replaceAll("-{2,}", "-").replaceAll("^-|-$", "");
            return name.isEmpty() ? "my-stage" : name;
        }

        void emissionsReturn() {
            Class<?> returned = method.getReturnType();
            boolean list = returned == List.class && Emission.class.equals(
                    ResolvableType.forMethodReturnType(method).as(List.class).getGeneric(0).resolve());
            check(returned == void.class || returned == Emission.class || list,
                    "it must return List<Emission>, Emission or void, not '" + simpleName(method.getGenericReturnType())
                            + "'", "Change the return type to List<Emission>, Emission or void.");
        }

        ResolvableType stepOfState() {
            check(method.getReturnType() == Step.class,
                    "it must return Step<S>, not '" + simpleName(method.getGenericReturnType()) + "'",
                    "Change the return type to Step<S>, with S the type of the state parameter.");
            ResolvableType state = ResolvableType.forMethodParameter(method, 0);
            ResolvableType stepState = ResolvableType.forMethodReturnType(method).as(Step.class).getGeneric(0);
            check(state.resolve() != null && !state.resolve().isPrimitive(),
                    "its state parameter must be a reference type, not '" + simpleName(state.getType()) + "'",
                    "Use a reference type for the state, such as '" + (state.resolve() == null ? "Object"
                            : ClassUtils.resolvePrimitiveIfNecessary(state.resolve()).getSimpleName()) + "'.");
            check(stepState.resolve() == null || stepState.resolve() == state.resolve(),
                    "its state parameter '" + simpleName(state.getType()) + "' and its Step type '"
                            + simpleName(stepState.getType()) + "' must be the same",
                    "Change the return type to 'Step<" + simpleName(state.getType()) + ">', or the state parameter"
                            + " to '" + simpleName(stepState.getType()) + "'.");
            return state;
        }

        Duration interval(String every) {
            Duration d;
            try {
                d = DurationStyle.detectAndParse(every);
            } catch (IllegalArgumentException e) {
                d = null;
            }
            check(d != null && !d.isZero() && !d.isNegative(), "its interval every='" + every
                    + "' is not a positive duration", "Set every to a positive duration such as '500ms', '5s' or"
                            + " 'PT1M'.");
            return d;
        }
    }

    /** A type as written in source, without package names: {@code Step<Balance>}. */
    static String simpleName(Type type) {
        return simpleName(type.getTypeName());
    }

    /** A type name without package names or enclosing classes. */
    static String simpleName(String typeName) {
        return typeName.replaceAll("[\\w$]+[.$]", "");
    }

    static String describe(Method method) {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName() + "("
                + String.join(", ", Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName).toList()) + ")";
    }
}
