package io.github.tobyjamesclements.parsley.spring.test;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;

/**
 * Checks, when the test context of a {@link ParsleyTest} class is being prepared, that Kafka's test
 * utilities are on the classpath, so the test fails before its context starts with the artifact to
 * add rather than at the first harness call with a {@code NoClassDefFoundError}. Customizes nothing.
 */
final class ParsleyTestContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        check(testClass, testClass.getClassLoader());
        return null;
    }

    static void check(Class<?> testClass, ClassLoader classLoader) {
        if (MergedAnnotations.from(testClass, SearchStrategy.TYPE_HIERARCHY).isPresent(ParsleyTest.class)) {
            TestUtilsCheck.require(classLoader, "@ParsleyTest on " + testClass.getName());
        }
    }
}
