package io.github.tobyjamesclements.parsley.spring.diagnostics;

import java.util.List;

/**
 * Thrown at startup when an annotated method names a topic for which no {@code Topic} bean exists.
 */
public class UnknownTopicException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String beanName;
    private final String method;
    private final String topic;
    private final List<String> knownTopics;

    /**
     * Creates the exception.
     *
     * @param beanName the bean declaring the method
     * @param method the method description
     * @param topic the unknown topic name
     * @param knownTopics the names of the declared {@code Topic} beans
     */
    public UnknownTopicException(String beanName, String method, String topic, List<String> knownTopics) {
        super("Method '" + method + "' on bean '" + beanName + "' names topic '" + topic
                + "', but no Topic bean is declared for it; declared topics: " + knownTopics);
        this.beanName = beanName;
        this.method = method;
        this.topic = topic;
        this.knownTopics = List.copyOf(knownTopics);
    }

    /**
     * The bean declaring the method.
     *
     * @return the bean name
     */
    public String getBeanName() {
        return beanName;
    }

    /**
     * The method.
     *
     * @return the method description
     */
    public String getMethod() {
        return method;
    }

    /**
     * The unknown topic.
     *
     * @return the topic name
     */
    public String getTopic() {
        return topic;
    }

    /**
     * The declared topics.
     *
     * @return the names of all {@code Topic} beans
     */
    public List<String> getKnownTopics() {
        return knownTopics;
    }
}
