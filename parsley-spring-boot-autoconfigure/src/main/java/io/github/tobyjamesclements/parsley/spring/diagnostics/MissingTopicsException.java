package io.github.tobyjamesclements.parsley.spring.diagnostics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Thrown at startup when topics the application consumes, emits to or ticks on do not exist on the
 * Kafka cluster and {@code parsley.topics.create} is off. Parsley does not create a missing topic
 * unless told to: a production topic's partitions, replication and retention are an operator's
 * decision.
 */
public class MissingTopicsException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String applicationId;
    private final Map<String, String> missing;

    /**
     * Creates the exception.
     *
     * @param applicationId the application id, which names the tick topics
     * @param missing each missing topic, in declaration order, with its role, such as
     *     {@code source of stage 'notifier'}
     */
    public MissingTopicsException(String applicationId, Map<String, String> missing) {
        super("Topics of application '" + applicationId + "' do not exist on the Kafka cluster: " + missing
                + "; create them, or set parsley.topics.create=true for development");
        this.applicationId = applicationId;
        this.missing = new LinkedHashMap<>(missing);
    }

    /**
     * The application id.
     *
     * @return the application id
     */
    public String getApplicationId() {
        return applicationId;
    }

    /**
     * The missing topics.
     *
     * @return each missing topic with its role, in declaration order
     */
    public Map<String, String> getMissing() {
        return Collections.unmodifiableMap(missing);
    }
}
