package io.github.tobyjamesclements.parsley.spring.diagnostics;

import org.jspecify.annotations.Nullable;

/**
 * Thrown at startup when {@code parsley.query.enabled} is true in an application that is not a
 * servlet web application with Spring MVC, where the reads endpoint cannot be served.
 */
public class QueryWithoutWebServerException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final @Nullable String webApplicationType;

    /**
     * Creates the exception.
     *
     * @param webApplicationType the value of {@code spring.main.web-application-type}, may be null when unset
     */
    public QueryWithoutWebServerException(@Nullable String webApplicationType) {
        super("parsley.query.enabled is true, but the application is not a servlet web application with Spring MVC");
        this.webApplicationType = webApplicationType;
    }

    /**
     * The configured web application type.
     *
     * @return the value of {@code spring.main.web-application-type}, or null when unset
     */
    public @Nullable String getWebApplicationType() {
        return webApplicationType;
    }
}
