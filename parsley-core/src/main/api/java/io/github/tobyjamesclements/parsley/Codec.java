package io.github.tobyjamesclements.parsley;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serde;

/**
 * A pure, two-way mapping between values and bytes for one side (key or value) of a {@link Topic}.
 *
 * <p>Codecs never see null: a null key or value bypasses the codec in both directions. A key codec
 * must be canonical (equal keys encode to equal bytes), because the encoded key chooses the
 * partition and keys fold state. Implementations must be thread-safe and free of side effects;
 * an exception from either direction fails the task (the step aborts and is retried).
 *
 * @param <T> the value type
 */
public interface Codec<T> {

    /**
     * Encodes a value.
     *
     * @param value the value, never null
     * @return its bytes, never null
     */
    byte[] encode(T value);

    /**
     * Decodes bytes produced by {@link #encode} (or by any producer of the same format).
     *
     * @param bytes the bytes, never null
     * @return the value, never null
     */
    T decode(byte[] bytes);

    /**
     * UTF-8 text.
     *
     * @return the codec, never null
     */
    static Codec<String> utf8() {
        return of(s -> s.getBytes(StandardCharsets.UTF_8), b -> new String(b, StandardCharsets.UTF_8));
    }

    /**
     * A long as 8 big-endian bytes, the layout of Kafka's {@code LongSerializer}.
     *
     * @return the codec, never null
     * @throws IllegalArgumentException from {@code decode} when the input is not 8 bytes long
     */
    static Codec<Long> int64() {
        return of(v -> ByteBuffer.allocate(Long.BYTES).putLong(v).array(), b -> {
            if (b.length != Long.BYTES) {
                throw new IllegalArgumentException("int64 codec expects 8 bytes; length=" + b.length);
            }
            return ByteBuffer.wrap(b).getLong();
        });
    }

    /**
     * Bytes as they are.
     *
     * @return the identity codec, never null
     */
    static Codec<byte[]> bytes() {
        return of(b -> b, b -> b);
    }

    /**
     * A codec from two functions.
     *
     * @param encode value to bytes, never null
     * @param decode bytes to value, never null
     * @param <T> the value type
     * @return the codec, never null
     */
    static <T> Codec<T> of(Function<T, byte[]> encode, Function<byte[], T> decode) {
        Objects.requireNonNull(encode, "encode");
        Objects.requireNonNull(decode, "decode");
        return new Codec<>() {
            @Override
            public byte[] encode(T value) {
                return encode.apply(value);
            }

            @Override
            public T decode(byte[] bytes) {
                return decode.apply(bytes);
            }
        };
    }

    /**
     * Bridges a Kafka {@link Serde}. Headers are not passed to the serde: a serde that needs them
     * (for example one writing a schema id to headers) is not supported.
     *
     * @param serde the serde, never null
     * @param topic the topic name passed to the serde, never null
     * @param <T> the value type
     * @return the codec, never null
     */
    static <T> Codec<T> fromSerde(Serde<T> serde, String topic) {
        Objects.requireNonNull(serde, "serde");
        Objects.requireNonNull(topic, "topic");
        return of(v -> serde.serializer().serialize(topic, v), b -> serde.deserializer().deserialize(topic, b));
    }
}
