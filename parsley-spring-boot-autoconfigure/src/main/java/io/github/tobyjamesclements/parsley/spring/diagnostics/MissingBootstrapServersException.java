package io.github.tobyjamesclements.parsley.spring.diagnostics;

/**
 * Thrown at startup when no Kafka bootstrap servers are configured for the Streams client.
 */
public class MissingBootstrapServersException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public MissingBootstrapServersException() {
        super("No Kafka bootstrap servers are configured for Parsley's Kafka Streams client");
    }
}
