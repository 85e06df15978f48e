package io.github.tobyjamesclements.parsley.spring.diagnostics;

/**
 * Thrown at startup when {@code parsley.dead-letter-topic} names a topic that does not exist on the
 * Kafka cluster, while every other topic of the application does. Parsley refuses to start rather
 * than find out at the first poison record, whose transaction could not commit.
 */
public class MissingDeadLetterTopicException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String topic;

    /**
     * Creates the exception.
     *
     * @param topic the dead-letter topic that does not exist
     */
    public MissingDeadLetterTopicException(String topic) {
        super("The dead-letter topic '" + topic + "' (parsley.dead-letter-topic) does not exist on the Kafka cluster");
        this.topic = topic;
    }

    /**
     * The dead-letter topic.
     *
     * @return the topic name
     */
    public String getTopic() {
        return topic;
    }
}
