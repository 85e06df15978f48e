package io.github.tobyjamesclements.parsley.spring;

import io.github.tobyjamesclements.parsley.Codec;
import java.util.Objects;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON codecs through the {@link JsonMapper} Spring Boot configures, for topic values and fold
 * state. Thread-safe.
 */
public final class ParsleyCodecs {

    private final JsonMapper mapper;

    /**
     * Creates codecs over a mapper.
     *
     * @param mapper the JSON mapper, never null
     */
    public ParsleyCodecs(JsonMapper mapper) {
        this.mapper = Objects.requireNonNull(mapper, "mapper");
    }

    /**
     * A JSON codec for a type.
     *
     * @param type the value type, never null
     * @param <T> the value type
     * @return the codec, never null; decoding throws on bytes that are not JSON of the type
     */
    public <T> Codec<T> json(Class<T> type) {
        Objects.requireNonNull(type, "type");
        return Codec.of(mapper::writeValueAsBytes, bytes -> mapper.readValue(bytes, type));
    }
}
