package io.github.tobyjamesclements.parsley;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AclOperation;

/**
 * Thrown when the broker refuses the client's principal an operation on topics that Parsley
 * needs: {@link AclOperation#DESCRIBE} to resolve a source, sink or tick topic, list its offsets or
 * resolve a topic for a {@link CausalClock}, and {@link AclOperation#DESCRIBE_CONFIGS} to read the
 * cleanup policy of every source and sink (compacted causal topics are refused).
 *
 * <p>Parsley does not work around a missing permission: a topic it cannot describe is not
 * assumed absent, uncompacted or empty, because each guess could trade order away. The message
 * names the topics, the operation denied and a {@code kafka-acls.sh} command that grants it,
 * which {@link #acl()} also returns; docs/security.md lists every ACL a Parsley application and a
 * producer using {@link CausalClock} need. Kafka answers a principal that may not describe a topic
 * the same way whether or not the topic exists, so the topics may also be missing.
 */
public class TopicAccessException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final AclOperation operation;
    private final List<String> topics;

    /**
     * Creates an exception for an operation denied on some topics.
     *
     * @param message the description: what was denied, where, and what to grant; never null
     * @param operation the operation the broker denied, never null
     * @param topics the topics it was denied on, at least one
     * @param cause the broker's answer, may be null
     * @throws IllegalArgumentException if {@code topics} is empty
     */
    public TopicAccessException(String message, AclOperation operation, Collection<String> topics, Throwable cause) {
        super(Objects.requireNonNull(message, "message"), cause);
        this.operation = Objects.requireNonNull(operation, "operation");
        this.topics = List.copyOf(new TreeSet<>(topics));
        if (this.topics.isEmpty()) {
            throw new IllegalArgumentException("A topic access failure names at least one topic; operation="
                    + operation);
        }
    }

    /**
     * The operation the broker denied.
     *
     * @return the operation, never null
     */
    public AclOperation operation() {
        return operation;
    }

    /**
     * The topics the operation was denied on.
     *
     * @return the topic names, sorted, distinct, never empty
     */
    public List<String> topics() {
        return topics;
    }

    /**
     * A {@code kafka-acls.sh} command that grants the denied operation on {@link #topics()}, with
     * placeholders for the broker, an administrator's client settings and the principal.
     *
     * @return the command, never null
     */
    public String acl() {
        return aclCommand(operation, topics);
    }

    /**
     * An exception whose message says what was denied on which topics, why Parsley asked, and
     * what to grant.
     */
    static TopicAccessException denied(AclOperation operation, Collection<String> topics, String why,
            Throwable cause) {
        List<String> sorted = List.copyOf(new TreeSet<>(topics));
        String which = sorted.size() == 1 ? "topic " + sorted.get(0) : "topics " + sorted;
        return new TopicAccessException("Not authorized to " + operation + " " + which + "; " + why + "; grant the"
                + " principal " + cliName(operation) + " on " + (sorted.size() == 1 ? "it" : "them") + ": "
                + aclCommand(operation, sorted) + " (every ACL Parsley needs: docs/security.md)", operation, sorted,
                cause);
    }

    private static String aclCommand(AclOperation operation, List<String> topics) {
        return "kafka-acls.sh --bootstrap-server <broker> --command-config <admin-client.properties> --add"
                + " --allow-principal User:<principal> --operation " + cliName(operation)
                + topics.stream().map(t -> " --topic " + t).collect(Collectors.joining());
    }

    /** The operation as kafka-acls.sh spells it: {@code DESCRIBE_CONFIGS} is {@code DescribeConfigs}. */
    static String cliName(AclOperation operation) {
        StringBuilder out = new StringBuilder();
        for (String word : operation.name().split("_")) {
            out.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
        }
        return out.toString();
    }
}
