package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.Emission;
import io.github.tobyjamesclements.parsley.Step;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ResolvableType;

/**
 * One validated annotated method and how to call it.
 *
 * @param beanName the declaring bean
 * @param bean the bean instance (possibly a proxy)
 * @param method the method to invoke on the bean
 * @param kind handler, fold, tick handler or tick fold
 * @param stage the stage name
 * @param source the source topic (null for ticks)
 * @param sinks the declared sink topics
 * @param every the tick interval (null unless a tick)
 * @param stateType the fold state type (null unless a fold)
 */
record CausalMethod(String beanName, Object bean, Method method, Kind kind, String stage, @Nullable String source,
        List<String> sinks, @Nullable Duration every, @Nullable ResolvableType stateType) {

    enum Kind {
        HANDLER("@CausalHandler"), FOLD("@CausalFold"), TICK("@CausalTick"), TICK_FOLD("@CausalTick");

        final String annotation;

        Kind(String annotation) {
            this.annotation = annotation;
        }

        boolean stateful() {
            return this == FOLD || this == TICK_FOLD;
        }
    }

    String description() {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }

    /** Calls a handler-shaped method and normalises its result to a list of emissions. */
    List<Emission> emissions(Object argument) {
        Object result = invoke(argument);
        if (result == null) {
            return List.of();
        }
        if (result instanceof Emission e) {
            return declared(List.of(e));
        }
        @SuppressWarnings("unchecked")
        List<Emission> list = (List<Emission>) result;
        return declared(list);
    }

    /** Calls a fold-shaped method. */
    @SuppressWarnings("unchecked")
    Step<Object> step(@Nullable Object state, Object argument) {
        Step<Object> step = (Step<Object>) invoke(state, argument);
        if (step == null) {
            throw new IllegalStateException("Fold returned null; bean=" + beanName + ", method=" + description()
                    + "; return Step.of(state) to keep the state");
        }
        declared(step.emissions());
        return step;
    }

    /**
     * Refuses an emission to a topic missing from this method's {@code sinks}. The stage refuses
     * topics missing from every method's sinks, in the functional API's words; an annotated method
     * declares its own sinks, so it is checked here, where the method and the annotation to change
     * are known.
     */
    private List<Emission> declared(List<Emission> emissions) {
        for (Emission e : emissions) {
            if (e != null && !sinks.contains(e.topic())) {
                throw new IllegalArgumentException(kind.annotation + " method '" + description() + "' on bean '"
                        + beanName + "' emitted to topic '" + e.topic() + "', which is not among its sinks "
                        + sinks + "; add '" + e.topic() + "' to sinks of the " + kind.annotation + " annotation");
            }
        }
        return emissions;
    }

    private @Nullable Object invoke(@Nullable Object... args) {
        try {
            return method.invoke(bean, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException("Causal method threw a checked exception; bean=" + beanName
                    + ", method=" + description(), cause);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Causal method is not accessible; bean=" + beanName + ", method="
                    + description(), e);
        }
    }
}
