package io.github.tobyjamesclements.parsley;

import java.util.Objects;

/**
 * One delivered record, decoded, with its own coordinate: for a record released from a hold, the
 * coordinate is its own, not that of the record whose arrival released it. Immutable when its key
 * and value are. Equal when every component is, the token's claims included.
 *
 * @param topic the source topic name, never null
 * @param partition the source partition
 * @param offset the record's offset
 * @param timestamp the record's timestamp in epoch milliseconds
 * @param key the decoded key, may be null
 * @param value the decoded value, may be null
 * @param token the causal past of the record: its own coordinate and every claim of its stamp,
 *     never null; {@link CausalToken#empty()} for a message built without one. A delivered
 *     message's token is computed only when it is first used, so logic that never asks for it
 *     does not pay for it
 * @param <K> the key type
 * @param <V> the value type
 */
public record Message<K, V>(String topic, int partition, long offset, long timestamp, K key, V value,
        CausalToken token) {

    /**
     * Validates.
     *
     * @throws NullPointerException if the topic or the token is null
     */
    public Message {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(token, "token");
    }

    /**
     * A message without a causal past: its token is {@link CausalToken#empty()}.
     *
     * @param topic the source topic name, never null
     * @param partition the source partition
     * @param offset the record's offset
     * @param timestamp the record's timestamp in epoch milliseconds
     * @param key the decoded key, may be null
     * @param value the decoded value, may be null
     * @throws NullPointerException if the topic is null
     */
    public Message(String topic, int partition, long offset, long timestamp, K key, V value) {
        this(topic, partition, offset, timestamp, key, value, CausalToken.empty());
    }

    /**
     * A message for unit tests of handlers and folds: partition 0, offset 0, timestamp 0, the empty token.
     *
     * @param topic the topic name, never null
     * @param key the key, may be null
     * @param value the value, may be null
     * @param <K> the key type
     * @param <V> the value type
     * @return the message, never null
     */
    public static <K, V> Message<K, V> of(String topic, K key, V value) {
        return new Message<>(topic, 0, 0L, 0L, key, value);
    }
}
