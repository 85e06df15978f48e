package io.github.tobyjamesclements.parsley.spring.diagnostics;

/**
 * Thrown at startup when a {@code ParsleyStreamsCustomizer} bean sets a Kafka Streams setting that
 * Parsley enforces to a value it refuses: a weaker processing guarantee, an exception handler that
 * could continue past a failure, or another application id.
 */
public class StreamsCustomizerException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String beanName;
    private final String setting;
    private final String value;
    private final String required;

    /**
     * Creates the exception.
     *
     * @param beanName the customizer bean
     * @param setting the Kafka Streams setting it changed
     * @param value the value it set
     * @param required the only value Parsley accepts
     */
    public StreamsCustomizerException(String beanName, String setting, String value, String required) {
        super("ParsleyStreamsCustomizer bean '" + beanName + "' set '" + setting + "' to '" + value
                + "', but Parsley requires '" + required + "'");
        this.beanName = beanName;
        this.setting = setting;
        this.value = value;
        this.required = required;
    }

    /**
     * The customizer bean.
     *
     * @return the bean name
     */
    public String getBeanName() {
        return beanName;
    }

    /**
     * The setting.
     *
     * @return the Kafka Streams setting name
     */
    public String getSetting() {
        return setting;
    }

    /**
     * The value the customizer set.
     *
     * @return the value
     */
    public String getValue() {
        return value;
    }

    /**
     * The value Parsley requires.
     *
     * @return the required value
     */
    public String getRequired() {
        return required;
    }
}
