package io.github.tobyjamesclements.parsley;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A Kafka topic with the codecs of its keys and values: the unit stages consume from and emit
 * to. Immutable and thread-safe. Two topics are equal when their names are equal.
 *
 * <p>Causal topics must not be compacted (compaction holes would be bridged as if delivered), and
 * must exist before a stage starts.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class Topic<K, V> {

    static final Pattern NAME = Pattern.compile("[a-zA-Z0-9._-]+");

    private final String name;
    private final Codec<K> keyCodec;
    private final Codec<V> valueCodec;

    private Topic(String name, Codec<K> keyCodec, Codec<V> valueCodec) {
        this.name = name;
        this.keyCodec = keyCodec;
        this.valueCodec = valueCodec;
    }

    /**
     * Declares a topic.
     *
     * @param name the Kafka topic name, matching {@code [a-zA-Z0-9._-]+}
     * @param key the key codec, never null
     * @param value the value codec, never null
     * @param <K> the key type
     * @param <V> the value type
     * @return the topic, never null
     * @throws IllegalArgumentException if the name is not a valid topic name
     */
    public static <K, V> Topic<K, V> of(String name, Codec<K> key, Codec<V> value) {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("Topic name must match [a-zA-Z0-9._-]+; name='" + name + "'");
        }
        return new Topic<>(name, Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    }

    /**
     * The Kafka topic name.
     *
     * @return the name, never null
     */
    public String name() {
        return name;
    }

    /**
     * An output to this topic whose timestamp is inherited from the message being handled (or the
     * tick being handled).
     *
     * @param key the key, may be null (null keys go to partition 0)
     * @param value the value, may be null
     * @return the emission, never null
     */
    public Emission send(K key, V value) {
        return new Emission(this, key, value, Emission.INHERIT_TIMESTAMP);
    }

    /**
     * An output to this topic with an explicit timestamp.
     *
     * @param key the key, may be null (null keys go to partition 0)
     * @param value the value, may be null
     * @param timestampMs the record timestamp in epoch milliseconds, {@code >= 0}
     * @return the emission, never null
     * @throws IllegalArgumentException if the timestamp is negative
     */
    public Emission send(K key, V value, long timestampMs) {
        if (timestampMs < 0) {
            throw new IllegalArgumentException("Emission timestamp must be >= 0; topic=" + name + ", timestamp="
                    + timestampMs);
        }
        return new Emission(this, key, value, timestampMs);
    }

    /**
     * The key codec.
     *
     * @return the codec, never null
     */
    public Codec<K> keyCodec() {
        return keyCodec;
    }

    /**
     * The value codec.
     *
     * @return the codec, never null
     */
    public Codec<V> valueCodec() {
        return valueCodec;
    }

    byte[] encodeKey(Object key) {
        return key == null ? null : keyCodec.encode(cast(key));
    }

    byte[] encodeValue(Object value) {
        return value == null ? null : valueCodec.encode(cast(value));
    }

    K decodeKey(byte[] bytes) {
        return bytes == null ? null : keyCodec.decode(bytes);
    }

    V decodeValue(byte[] bytes) {
        return bytes == null ? null : valueCodec.decode(bytes);
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object o) {
        return (T) o;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Topic<?, ?> other && name.equals(other.name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return "Topic[" + name + "]";
    }
}
