package io.github.tobyjamesclements.parsley.spring.diagnostics;

/**
 * Thrown at startup when one topic is the source of two annotated methods of one stage: within a
 * stage each source topic belongs to exactly one method. Methods of different stages may consume
 * one topic (fan-out); each stage orders it on its own.
 */
public class DuplicateSourceException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String topic;
    private final String first;
    private final String second;

    /**
     * Creates the exception.
     *
     * @param topic the topic consumed twice
     * @param first the first consumer, as {@code stage 'x' (bean.method)}
     * @param second the second consumer, of the same stage
     */
    public DuplicateSourceException(String topic, String first, String second) {
        super("Topic '" + topic + "' is the source of " + first + " and of " + second);
        this.topic = topic;
        this.first = first;
        this.second = second;
    }

    /**
     * The topic.
     *
     * @return the topic name
     */
    public String getTopic() {
        return topic;
    }

    /**
     * The first consumer.
     *
     * @return its description
     */
    public String getFirst() {
        return first;
    }

    /**
     * The second consumer.
     *
     * @return its description
     */
    public String getSecond() {
        return second;
    }
}
