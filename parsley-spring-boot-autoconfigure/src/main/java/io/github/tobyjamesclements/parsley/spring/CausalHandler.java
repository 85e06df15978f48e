package io.github.tobyjamesclements.parsley.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.aot.hint.annotation.Reflective;

/**
 * Marks a bean method as the stateless logic of one source of a causal stage.
 *
 * <p>Accepted signatures, where {@code K} and {@code V} match the key and value types of the
 * {@code Topic} bean named by {@link #source()}:
 * <pre>
 * List&lt;Emission&gt; m(Message&lt;K, V&gt; message)
 * Emission m(Message&lt;K, V&gt; message)
 * void m(Message&lt;K, V&gt; message)
 * </pre>
 * Methods that share a {@link #stage()} form one stage; within a stage each source topic belongs
 * to one method. Methods of different stages may name the same source (fan-out): each stage
 * orders it on its own, with its own holds and state. A method that does not fit fails startup naming the bean, the method and the rule.
 *
 * <p>Spring AOT registers the method for reflective invocation and its {@code Message} key and value
 * types for JSON binding ({@code CausalMethodReflectiveProcessor}), so a native image calls it.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective(CausalMethodReflectiveProcessor.class)
public @interface CausalHandler {

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
     * The names of the topics this method may emit to; each must be a {@code Topic} bean.
     *
     * @return the sink topic names
     */
    String[] sinks() default {};
}
