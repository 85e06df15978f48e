package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.spring.diagnostics.StreamsCustomizerException;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DefaultProductionExceptionHandler;
import org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Applies the {@link ParsleyStreamsCustomizer} beans in order and refuses, naming the bean, a
 * customizer that changed a setting Parsley enforces to a value it would reject. Only settings a
 * customizer changed are attributed to it; what the properties already said is left to the
 * enforcement in {@code Parsley.streams}, which runs afterwards on the result either way.
 */
final class StreamsCustomizers {

    private StreamsCustomizers() {
    }

    static void apply(ListableBeanFactory beanFactory, ObjectProvider<ParsleyStreamsCustomizer> customizers,
            Properties properties, String applicationId) {
        Map<Object, String> names = new IdentityHashMap<>();
        beanFactory.getBeansOfType(ParsleyStreamsCustomizer.class).forEach((name, bean) -> names.put(bean, name));
        Map<String, String> enforced = enforced(applicationId);
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

    /** Each enforced setting and the only value a customizer may give it. */
    private static Map<String, String> enforced(String applicationId) {
        Map<String, String> enforced = new LinkedHashMap<>();
        enforced.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        enforced.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
                LogAndFailProcessingExceptionHandler.class.getName());
        enforced.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG,
                DefaultProductionExceptionHandler.class.getName());
        enforced.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        return enforced;
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
