package io.github.tobyjamesclements.parsley.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.aot.hint.annotation.Reflective;

/**
 * Marks a bean method as the tick logic of a causal stage: every {@link #every()} each task of the
 * stage emits a tick to {@code <application-id>-<stage>-ticks} and runs this method when the tick
 * is delivered, after the history it claims.
 *
 * <p>Accepted signatures: {@code List<Emission> m(Tick)}, {@code Emission m(Tick)},
 * {@code void m(Tick)}, or the fold form {@code Step<S> m(S state, Tick tick)} over one state
 * slot per task. One per stage.
 *
 * <p>Spring AOT registers the method for reflective invocation and a tick fold's state type for JSON
 * binding ({@code CausalMethodReflectiveProcessor}), so a native image calls it.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective(CausalMethodReflectiveProcessor.class)
public @interface CausalTick {

    /**
     * The stage name.
     *
     * @return the stage name
     */
    String stage();

    /**
     * The tick interval, as a Spring Boot duration: {@code 500ms}, {@code 5s}, {@code PT1M}.
     *
     * @return the interval
     */
    String every();

    /**
     * The names of the topics this method may emit to.
     *
     * @return the sink topic names
     */
    String[] sinks() default {};
}
