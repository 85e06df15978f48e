package io.github.tobyjamesclements.parsley.spring.diagnostics;

/**
 * Thrown at startup when an attribute of a {@code @CausalHandler}, {@code @CausalFold} or
 * {@code @CausalTick} method holds a {@code ${...}} placeholder that no property source defines
 * and that has no default. Parsley refuses to take the placeholder's text as a topic or stage name.
 */
public class UnresolvablePlaceholderException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String beanName;
    private final String method;
    private final String annotation;
    private final String attribute;
    private final String value;
    private final String placeholder;

    /**
     * Creates the exception.
     *
     * @param beanName the bean declaring the method
     * @param method the method, as {@code Class.method(params)}
     * @param annotation the annotation's simple name, with {@code @}
     * @param attribute the attribute holding the placeholder, such as {@code source}
     * @param value the attribute's value as written
     * @param placeholder the property key that could not be resolved
     * @param cause the resolver's failure
     */
    public UnresolvablePlaceholderException(String beanName, String method, String annotation, String attribute,
            String value, String placeholder, Throwable cause) {
        super("Could not resolve placeholder '" + placeholder + "' in " + annotation + " attribute " + attribute + "='"
                + value + "' of method '" + method + "' on bean '" + beanName + "'", cause);
        this.beanName = beanName;
        this.method = method;
        this.annotation = annotation;
        this.attribute = attribute;
        this.value = value;
        this.placeholder = placeholder;
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
     * The annotation.
     *
     * @return the annotation name with {@code @}
     */
    public String getAnnotation() {
        return annotation;
    }

    /**
     * The attribute holding the placeholder.
     *
     * @return the attribute name
     */
    public String getAttribute() {
        return attribute;
    }

    /**
     * The attribute's value as written.
     *
     * @return the value, placeholder included
     */
    public String getValue() {
        return value;
    }

    /**
     * The property key no property source defines.
     *
     * @return the placeholder's key
     */
    public String getPlaceholder() {
        return placeholder;
    }
}
