package io.github.tobyjamesclements.parsley;

import java.util.Collection;
import java.util.List;

/**
 * Thrown at startup when topics the application names do not exist on the cluster: sources,
 * sinks, tick topics or the dead-letter topic. Parsley creates no topic itself: each must exist,
 * with its partitions, before the application starts. {@link #topics()} names the missing ones, so
 * that a framework can say which setting named each and how to create it.
 *
 * <p>Only a topic the cluster reports as unknown counts. A topic the principal may not describe
 * gives a {@link TopicAccessException} instead (Kafka answers a missing topic the same way there),
 * and a describe that times out is reported as it is.
 */
public class AbsentTopicsException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final List<String> topics;

    /**
     * Creates an exception for missing topics.
     *
     * @param topics the missing topics, at least one
     * @throws IllegalArgumentException if {@code topics} is empty
     */
    public AbsentTopicsException(Collection<String> topics) {
        super("Cannot resolve topic; missing topics=" + List.copyOf(topics) + "; create every source, sink and tick"
                + " topic, and the dead-letter topic if one is set, before starting the application");
        if (topics.isEmpty()) {
            throw new IllegalArgumentException("An absent-topics failure names at least one topic");
        }
        this.topics = List.copyOf(topics);
    }

    /**
     * The topics the cluster does not know, in the order the application names them.
     *
     * @return the topics, never empty
     */
    public List<String> topics() {
        return topics;
    }
}
