package io.github.tobyjamesclements.parsley.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.aot.hint.annotation.Reflective;

/**
 * Marks a bean method as a fold over per-key state for one source of a causal stage.
 *
 * <p>Accepted signature: {@code Step<S> m(S state, Message<K, V> message)}. Every fold and tick
 * fold of one stage shares the state type {@code S}. The state codec defaults to JSON through the
 * application's JSON mapper and the initial state to {@code S}'s no-arg constructor; a
 * {@link CausalState} bean for the stage overrides both. A state type without a no-arg constructor
 * and without a {@code CausalState} bean (a record, a boxed number) fails startup, unless the state
 * parameter is annotated {@code @Nullable} (any annotation of that simple name): then each key starts
 * from null.
 *
 * <p>Spring AOT registers the method for reflective invocation and its {@code Message} key and value
 * types and state type for JSON binding ({@code CausalMethodReflectiveProcessor}), so a native image calls it.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective(CausalMethodReflectiveProcessor.class)
public @interface CausalFold {

    /**
     * The stage name, matching {@code [a-zA-Z0-9-]+}.
     *
     * @return the stage name
     */
    String stage();

    /**
     * The name of the source topic; a {@code Topic} bean with this name must exist.
     *
     * @return the topic name
     */
    String source();

    /**
     * The names of the topics this method may emit to.
     *
     * @return the sink topic names
     */
    String[] sinks() default {};
}
