package io.github.tobyjamesclements.parsley.spring.query;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.core.convert.ConversionException;
import org.springframework.core.convert.ConversionService;

/**
 * The stages of the application and the key type of each stateful one, and the conversion of a
 * key's text, as it appears in a request's path, to that type. A key type that is
 * {@code String}, {@code CharSequence} or {@code Object} takes the text as it is; any other is
 * converted by the {@link ConversionService}, so a {@code Long} key is written {@code 42} and a
 * {@code UUID} key in its usual form. Immutable and thread-safe if the conversion service is.
 */
public final class StateKeys {

    private final Map<String, @Nullable Class<?>> stages;
    private final ConversionService conversion;

    /**
     * Creates the lookup.
     *
     * @param stages every stage name in declaration order, mapped to its key type when it is
     *     stateful and to null when it keeps no state; never null
     * @param conversion the conversion of key text to key types, never null
     */
    public StateKeys(Map<String, @Nullable Class<?>> stages, ConversionService conversion) {
        this.stages = new LinkedHashMap<>(stages);
        this.conversion = Objects.requireNonNull(conversion, "conversion");
    }

    /**
     * Whether the application has a stage of this name.
     *
     * @param stage a stage name, never null
     * @return true if it has
     */
    public boolean has(String stage) {
        return stages.containsKey(stage);
    }

    /**
     * The key type of a stateful stage.
     *
     * @param stage a stage name, never null
     * @return the type, or null for a stage that keeps no state or does not exist
     */
    public @Nullable Class<?> keyType(String stage) {
        return stages.get(stage);
    }

    /**
     * Every stage name, in declaration order.
     *
     * @return an immutable list, never null
     */
    public List<String> stages() {
        return List.copyOf(stages.keySet());
    }

    /**
     * The names of the stages that keep state, in declaration order.
     *
     * @return an immutable list, never null
     */
    public List<String> statefulStages() {
        return stages.entrySet().stream().filter(e -> e.getValue() != null).map(Map.Entry::getKey).toList();
    }

    /**
     * Converts a key's text to the key type of a stateful stage.
     *
     * @param stage a stateful stage's name, never null
     * @param text the key's text, never null
     * @return the key, never null
     * @throws IllegalArgumentException if the stage keeps no state, or the text does not convert
     */
    public Object key(String stage, String text) {
        Class<?> type = stages.get(stage);
        if (type == null) {
            throw new IllegalArgumentException("Stage '" + stage + "' keeps no state; stateful stages="
                    + statefulStages());
        }
        if (type == String.class || type == CharSequence.class || type == Object.class) {
            return text;
        }
        if (!conversion.canConvert(String.class, type)) {
            throw new IllegalArgumentException("The keys of stage '" + stage + "' are of type '" + type.getName()
                    + "', and no conversion from text to it is known; declare a Converter<String, "
                    + type.getSimpleName() + "> bean, or give the type a static valueOf(String) method");
        }
        Object key;
        try {
            key = conversion.convert(text, type);
        } catch (ConversionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalArgumentException("Key '" + text + "' is not a valid " + type.getSimpleName()
                    + ", the key type of stage '" + stage + "': " + cause.getMessage(), e);
        }
        if (key == null) {
            throw new IllegalArgumentException("Key '" + text + "' converts to no " + type.getSimpleName()
                    + ", the key type of stage '" + stage + "'");
        }
        return key;
    }
}
