package io.github.tobyjamesclements.parsley.spring.diagnostics;

/**
 * Thrown at startup when no application id can be found for the Parsley application.
 */
public class MissingApplicationIdException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public MissingApplicationIdException() {
        super("No application id is configured for Parsley: parsley.application-id,"
                + " spring.kafka.streams.application-id and spring.application.name are all unset");
    }
}
