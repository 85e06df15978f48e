package io.github.tobyjamesclements.parsley;

/**
 * One output of user logic, as a value: a key and value for a topic, built only by
 * {@link Topic#send}. Immutable when its key and value are.
 *
 * <p>The stage encodes it with the topic's codecs, partitions it, stamps it with the stage's
 * causal clock and writes it in the same transaction as the delivery that produced it. An
 * emission to a topic the stage did not declare as a sink fails the task.
 */
public final class Emission {

    static final long INHERIT_TIMESTAMP = -1L;

    private final Topic<?, ?> topic;
    private final Object key;
    private final Object value;
    private final long timestamp;

    Emission(Topic<?, ?> topic, Object key, Object value, long timestamp) {
        this.topic = topic;
        this.key = key;
        this.value = value;
        this.timestamp = timestamp;
    }

    /**
     * The destination topic's name.
     *
     * @return the name, never null
     */
    public String topic() {
        return topic.name();
    }

    /**
     * The key.
     *
     * @return the key, may be null
     */
    public Object key() {
        return key;
    }

    /**
     * The value.
     *
     * @return the value, may be null
     */
    public Object value() {
        return value;
    }

    Topic<?, ?> target() {
        return topic;
    }

    long timestamp() {
        return timestamp;
    }

    @Override
    public String toString() {
        return "Emission[topic=" + topic.name() + ", key=" + key + ", timestamp="
                + (timestamp == INHERIT_TIMESTAMP ? "inherited" : timestamp) + "]";
    }
}
