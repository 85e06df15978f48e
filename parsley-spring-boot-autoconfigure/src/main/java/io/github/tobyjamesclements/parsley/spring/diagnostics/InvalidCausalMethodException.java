package io.github.tobyjamesclements.parsley.spring.diagnostics;

/**
 * Thrown at startup when an annotated method cannot become causal logic: a wrong signature, a bad
 * stage name or interval, or a second tick method for one stage.
 */
public class InvalidCausalMethodException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String beanName;
    private final String method;
    private final String annotation;
    private final String rule;
    private final String fix;

    /**
     * Creates the exception.
     *
     * @param beanName the bean declaring the method
     * @param method the method, as {@code Class.method(params)}
     * @param annotation the annotation's simple name, with {@code @}
     * @param rule the rule the method breaks, one clause
     * @param fix what to change, one imperative sentence
     */
    public InvalidCausalMethodException(String beanName, String method, String annotation, String rule, String fix) {
        super("Invalid " + annotation + " method '" + method + "' on bean '" + beanName + "': " + rule);
        this.beanName = beanName;
        this.method = method;
        this.annotation = annotation;
        this.rule = rule;
        this.fix = fix;
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
     * The broken rule.
     *
     * @return the rule
     */
    public String getRule() {
        return rule;
    }

    /**
     * What to change.
     *
     * @return the fix, one imperative sentence
     */
    public String getFix() {
        return fix;
    }
}
