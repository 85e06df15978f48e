package io.github.tobyjamesclements.parsley.spring.diagnostics;

/**
 * Thrown at startup when the configuration asks for a processing guarantee other than
 * {@code exactly_once_v2}: causal delivery needs hold queues, clocks, state, consumed offsets and
 * outputs to commit atomically.
 */
public class ProcessingGuaranteeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String property;
    private final String value;

    /**
     * Creates the exception.
     *
     * @param property the property that sets the guarantee
     * @param value its value
     */
    public ProcessingGuaranteeException(String property, String value) {
        super("Parsley requires processing.guarantee=exactly_once_v2, but '" + property + "' is '" + value + "'");
        this.property = property;
        this.value = value;
    }

    /**
     * The property.
     *
     * @return the property name
     */
    public String getProperty() {
        return property;
    }

    /**
     * The configured value.
     *
     * @return the value
     */
    public String getValue() {
        return value;
    }
}
