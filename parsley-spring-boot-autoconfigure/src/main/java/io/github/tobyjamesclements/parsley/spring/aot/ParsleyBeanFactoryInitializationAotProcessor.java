package io.github.tobyjamesclements.parsley.spring.aot;

import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.CausalState;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;

/**
 * Binding hints for the types that {@code Topic<K, V>} and {@code CausalState<S>} beans carry: a
 * JSON codec from {@code ParsleyCodecs} binds them by reflection, which a native image allows only
 * for registered types. Reads each bean's declared type at build time and instantiates nothing. A
 * bean declared as a raw {@code Topic} or with wildcards says nothing about its types and gets no
 * hint; declare its types, or register them with {@code @RegisterReflectionForBinding}.
 */
final class ParsleyBeanFactoryInitializationAotProcessor implements BeanFactoryInitializationAotProcessor {

    private static final String TOPIC = "io.github.tobyjamesclements.parsley.Topic";

    @Override
    public @Nullable BeanFactoryInitializationAotContribution processAheadOfTime(
            ConfigurableListableBeanFactory beanFactory) {
        if (!ClassUtils.isPresent(TOPIC, beanFactory.getBeanClassLoader())) {
            return null;
        }
        List<Type> bound = boundTypes(beanFactory);
        if (bound.isEmpty()) {
            return null;
        }
        return (context, code) -> new BindingReflectionHintsRegistrar()
                .registerReflectionHints(context.getRuntimeHints().reflection(), bound.toArray(Type[]::new));
    }

    private static List<Type> boundTypes(ConfigurableListableBeanFactory beanFactory) {
        List<Type> bound = new ArrayList<>();
        for (String name : beanFactory.getBeanDefinitionNames()) {
            if (beanFactory.getMergedBeanDefinition(name).isAbstract()) {
                continue;
            }
            ResolvableType type = RegisteredBean.of(beanFactory, name).getBeanType();
            ResolvableType topic = type.as(Topic.class);
            add(bound, topic.getGeneric(0));
            add(bound, topic.getGeneric(1));
            add(bound, type.as(CausalState.class).getGeneric(0));
        }
        return bound;
    }

    private static void add(List<Type> bound, ResolvableType type) {
        if (type.resolve() != null) {
            bound.add(type.getType());
        }
    }
}
