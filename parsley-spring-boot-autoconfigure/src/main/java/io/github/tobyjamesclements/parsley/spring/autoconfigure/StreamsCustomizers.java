package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.spring.diagnostics.StreamsCustomizerException;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Applies the {@link ParsleyStreamsCustomizer} beans in order and refuses, naming the bean, a
 * customizer that changed a setting Parsley enforces ({@link Parsley#enforcedSettings()}) to a value
 * it would reject. Only settings a customizer changed are attributed to it; what the properties
 * already said is left to the enforcement in {@code Parsley.streams}, which runs afterwards on the
 * result either way.
 */
final class StreamsCustomizers {

    private StreamsCustomizers() {
    }

    static void apply(ListableBeanFactory beanFactory, ObjectProvider<ParsleyStreamsCustomizer> customizers,
            Properties properties, Parsley parsley) {
        Map<Object, String> names = new IdentityHashMap<>();
        beanFactory.getBeansOfType(ParsleyStreamsCustomizer.class).forEach((name, bean) -> names.put(bean, name));
        Map<String, String> enforced = parsley.enforcedSettings();
        customizers.orderedStream().forEach(customizer -> {
            Map<String, Object> before = snapshot(properties, enforced);
            customizer.customize(properties);
            enforced.forEach((setting, required) -> {
                Object value = properties.get(setting);
                if (!Objects.equals(before.get(setting), value) && value != null && !required.equals(text(value))) {
                    throw new StreamsCustomizerException(names.getOrDefault(customizer,
                            customizer.getClass().getName()), setting, text(value), required);
                }
            });
        });
    }

    private static Map<String, Object> snapshot(Properties properties, Map<String, String> enforced) {
        Map<String, Object> values = new LinkedHashMap<>();
        enforced.keySet().forEach(setting -> values.put(setting, properties.get(setting)));
        return values;
    }

    private static String text(Object value) {
        return value instanceof Class<?> c ? c.getName() : value.toString();
    }
}
