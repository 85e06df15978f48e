package io.github.tobyjamesclements.parsley.spring.diagnostics;

/**
 * Thrown at startup when an annotated method's {@code Message<K, V>} parameter does not accept the
 * key or value type of the {@code Topic} bean it consumes.
 */
public class TopicTypeMismatchException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String beanName;
    private final String method;
    private final String topic;
    private final String expected;
    private final String actual;

    /**
     * Creates the exception.
     *
     * @param beanName the bean declaring the method
     * @param method the method description
     * @param topic the source topic
     * @param expected the message type the method declares
     * @param actual the topic's type
     */
    public TopicTypeMismatchException(String beanName, String method, String topic, String expected,
            String actual) {
        super("Method '" + method + "' on bean '" + beanName + "' takes " + expected + " but topic '" + topic
                + "' is a " + actual);
        this.beanName = beanName;
        this.method = method;
        this.topic = topic;
        this.expected = expected;
        this.actual = actual;
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
     * The topic.
     *
     * @return the topic name
     */
    public String getTopic() {
        return topic;
    }

    /**
     * The parameter type the method declares.
     *
     * @return the declared message type
     */
    public String getExpected() {
        return expected;
    }

    /**
     * The topic bean's type.
     *
     * @return the topic type
     */
    public String getActual() {
        return actual;
    }
}
