package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import io.github.tobyjamesclements.parsley.Topic;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.ResolvableType;

/**
 * The key type of each stateful stage, as the reads endpoint converts a key's text to it. A stage's
 * keys are those of its first folded source topic (where {@code CausalStreams.read} places a key):
 * the key type of that topic's {@code Topic<K, V>} bean when its declaration names one, else the
 * {@code K} of the {@code Message<K, V>} parameter of the fold that consumes it, else
 * {@code String} (the text as it is).
 */
final class StageKeyTypes {

    private StageKeyTypes() {
    }

    /** Every stage, in declaration order, mapped to its key type, or to null when it keeps no state. */
    static Map<String, @Nullable Class<?>> of(Parsley parsley, ConfigurableListableBeanFactory beanFactory) {
        Map<String, @Nullable Class<?>> out = new LinkedHashMap<>();
        for (Stage stage : parsley.stages()) {
            String topic = stage.sourceTopics().stream().filter(stage::foldsOver).findFirst().orElse(null);
            out.put(stage.name(), topic == null ? null : keyType(beanFactory, stage.name(), topic));
        }
        return out;
    }

    private static Class<?> keyType(ConfigurableListableBeanFactory beanFactory, String stage, String topic) {
        Class<?> declared = topicKeyType(beanFactory, topic);
        if (declared != null) {
            return declared;
        }
        for (CausalMethod m : CausalMethodScanner.scan(beanFactory)) {
            if (m.kind() == CausalMethod.Kind.FOLD && stage.equals(m.stage()) && topic.equals(m.source())) {
                Class<?> k = ResolvableType.forMethodParameter(m.method(), 1).as(Message.class).getGeneric(0)
                        .resolve();
                if (k != null) {
                    return k;
                }
            }
        }
        return String.class;
    }

    private static @Nullable Class<?> topicKeyType(ConfigurableListableBeanFactory beanFactory, String topic) {
        for (Map.Entry<String, Topic> e : beanFactory.getBeansOfType(Topic.class).entrySet()) {
            if (e.getValue().name().equals(topic)) {
                BeanDefinition bd = beanFactory.getMergedBeanDefinition(e.getKey());
                ResolvableType type = bd instanceof RootBeanDefinition root ? root.getResolvableType()
                        : ResolvableType.NONE;
                return type.as(Topic.class).getGeneric(0).resolve();
            }
        }
        return null;
    }
}
