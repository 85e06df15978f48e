package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.spring.diagnostics.InvalidCausalMethodException;
import io.github.tobyjamesclements.parsley.spring.diagnostics.UnresolvablePlaceholderException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanExpressionContext;
import org.springframework.beans.factory.config.BeanExpressionResolver;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.util.PlaceholderResolutionException;

/**
 * Resolves the String attributes of {@code @CausalHandler}, {@code @CausalFold} and
 * {@code @CausalTick} by spring-kafka's rules for {@code @KafkaListener}: {@code ${...}}
 * placeholders first, against the Environment and with a default after a colon, then
 * {@code #{...}} expressions through the bean factory's {@link BeanExpressionResolver}. Each
 * element of an array attribute may resolve to a String, a String array or a collection of
 * Strings, each one name; a text with commas stays one name, as with {@code topics}. A single
 * attribute must resolve to a String.
 *
 * <p>Refuses an unresolvable placeholder with {@link UnresolvablePlaceholderException}, and an
 * expression that fails or yields anything else with {@link InvalidCausalMethodException}: a
 * topic or stage name taken literally would only fail later, further from its cause.
 */
final class CausalAttributes {

    private final Environment environment;
    private final @Nullable BeanExpressionResolver expressions;
    private final BeanExpressionContext context;

    CausalAttributes(ConfigurableListableBeanFactory beanFactory) {
        this.environment = beanFactory.getBean(ConfigurableApplicationContext.ENVIRONMENT_BEAN_NAME,
                Environment.class);
        this.expressions = beanFactory.getBeanExpressionResolver();
        this.context = new BeanExpressionContext(beanFactory, null);
    }

    /** The attributes of one method, so that every failure names it. */
    Of of(String beanName, Method method, String annotation) {
        return new Of(beanName, method, annotation);
    }

    /** Resolves the attributes of one annotated method. */
    final class Of {

        private final String beanName;
        private final Method method;
        private final String annotation;

        private Of(String beanName, Method method, String annotation) {
            this.beanName = beanName;
            this.method = method;
            this.annotation = annotation;
        }

        /** A single-valued attribute, which must resolve to a String. */
        String one(String attribute, String value) {
            Object resolved = evaluate(attribute, value);
            if (resolved instanceof String s) {
                return s;
            }
            throw invalid(attribute, value, "resolves to " + describe(resolved) + ", not a String",
                    "Make the expression in " + attribute + " yield one String.");
        }

        /** An array attribute: each element one name, or an expression yielding several. */
        List<String> many(String attribute, String[] values) {
            List<String> out = new ArrayList<>();
            for (String value : values) {
                flatten(attribute, value, evaluate(attribute, value), out);
            }
            return List.copyOf(out);
        }

        private void flatten(String attribute, String value, @Nullable Object resolved, List<String> out) {
            if (resolved instanceof String s) {
                out.add(s);
            } else if (resolved instanceof Object[] array) {
                for (Object o : array) {
                    flatten(attribute, value, o, out);
                }
            } else if (resolved instanceof Iterable<?> iterable) {
                iterable.forEach(o -> flatten(attribute, value, o, out));
            } else {
                throw invalid(attribute, value, "resolves to " + describe(resolved) + ", not a String, a String[]"
                        + " or a collection of Strings", "Make the expression in " + attribute + " yield topic names.");
            }
        }

        private @Nullable Object evaluate(String attribute, String value) {
            String placed;
            try {
                placed = environment.resolveRequiredPlaceholders(value);
            } catch (PlaceholderResolutionException e) {
                throw new UnresolvablePlaceholderException(beanName, CausalMethodScanner.describe(method), annotation,
                        attribute, value, e.getPlaceholder(), e);
            }
            if (expressions == null) {
                return placed;
            }
            try {
                return expressions.evaluate(placed, context);
            } catch (BeansException e) {
                throw invalid(attribute, value, "its expression cannot be evaluated: " + e.getMessage(),
                        "Correct the #{...} expression in " + attribute + ".");
            }
        }

        private InvalidCausalMethodException invalid(String attribute, String value, String problem, String fix) {
            return new InvalidCausalMethodException(beanName, CausalMethodScanner.describe(method), annotation,
                    "its attribute " + attribute + "='" + value + "' " + problem, fix);
        }
    }

    private static String describe(@Nullable Object resolved) {
        return resolved == null ? "null" : "a " + resolved.getClass().getSimpleName() + " '" + resolved + "'";
    }
}
