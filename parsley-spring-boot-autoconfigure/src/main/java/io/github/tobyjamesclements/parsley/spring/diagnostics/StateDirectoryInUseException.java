package io.github.tobyjamesclements.parsley.spring.diagnostics;

/**
 * Thrown at startup when Kafka Streams cannot lock the application's state directory because
 * another instance of the same application, in this JVM or another process, holds it. Two
 * instances must not share one state directory: each would take the other's task state as its own.
 */
public class StateDirectoryInUseException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String directory;
    private final String applicationId;

    /**
     * Creates the exception.
     *
     * @param directory the application's state directory, {@code <state.dir>/<application id>}
     * @param applicationId the application id
     * @param cause Kafka Streams' failure
     */
    public StateDirectoryInUseException(String directory, String applicationId, Throwable cause) {
        super("The state directory '" + directory + "' of application '" + applicationId + "' is in use by another"
                + " instance; give each instance its own spring.kafka.streams.state-dir", cause);
        this.directory = directory;
        this.applicationId = applicationId;
    }

    /**
     * The state directory in use.
     *
     * @return the directory, {@code <state.dir>/<application id>}
     */
    public String getDirectory() {
        return directory;
    }

    /**
     * The application id.
     *
     * @return the application id
     */
    public String getApplicationId() {
        return applicationId;
    }
}
