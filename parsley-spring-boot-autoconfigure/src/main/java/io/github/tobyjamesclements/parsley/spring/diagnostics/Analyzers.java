package io.github.tobyjamesclements.parsley.spring.diagnostics;

import io.github.tobyjamesclements.parsley.ClusterConnectionException;
import io.github.tobyjamesclements.parsley.TopicAccessException;
import java.util.stream.Collectors;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * The failure analyzers of Parsley's startup exceptions, one per exception. Each description
 * quotes the offending values in single quotes; each action is one imperative sentence naming the
 * fix.
 */
final class Analyzers {

    private Analyzers() {
    }

    static final class InvalidCausalMethodFailureAnalyzer extends AbstractFailureAnalyzer<InvalidCausalMethodException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, InvalidCausalMethodException e) {
            return new FailureAnalysis("The " + e.getAnnotation() + " method '" + e.getMethod() + "' on bean '"
                    + e.getBeanName() + "' is invalid: " + e.getRule() + ".", e.getFix(), e);
        }
    }

    static final class UnknownTopicFailureAnalyzer extends AbstractFailureAnalyzer<UnknownTopicException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, UnknownTopicException e) {
            String known = e.getKnownTopics().isEmpty() ? "No Topic bean is declared at all."
                    : "Declared topics: " + e.getKnownTopics().stream().map(t -> "'" + t + "'")
                            .collect(Collectors.joining(", ")) + ".";
            String suggestion = NameSuggestions.closest(e.getTopic(), e.getKnownTopics())
                    .map(t -> " Did you mean '" + t + "'?").orElse("");
            return new FailureAnalysis("The method '" + e.getMethod() + "' on bean '" + e.getBeanName()
                    + "' names topic '" + e.getTopic() + "', but no Topic bean is declared for it. " + known
                    + suggestion,
                    "Declare a Topic bean for '" + e.getTopic() + "', such as Topic.of(\"" + e.getTopic()
                            + "\", keyCodec, valueCodec), or correct the topic name in the annotation.", e);
        }
    }

    static final class UnresolvablePlaceholderFailureAnalyzer
            extends AbstractFailureAnalyzer<UnresolvablePlaceholderException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, UnresolvablePlaceholderException e) {
            return new FailureAnalysis("The " + e.getAnnotation() + " method '" + e.getMethod() + "' on bean '"
                    + e.getBeanName() + "' has " + e.getAttribute() + "='" + e.getValue() + "', but no property"
                    + " source defines '" + e.getPlaceholder() + "' and the placeholder has no default.",
                    "Define the property '" + e.getPlaceholder() + "' (in application.properties, an environment"
                            + " variable or a command-line argument), or give the placeholder a default, such as '${"
                            + e.getPlaceholder() + ":name}'.", e);
        }
    }

    static final class DuplicateSourceFailureAnalyzer extends AbstractFailureAnalyzer<DuplicateSourceException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, DuplicateSourceException e) {
            return new FailureAnalysis("Topic '" + e.getTopic() + "' is the source of " + e.getFirst() + " and of "
                    + e.getSecond() + ", but within one stage each source topic belongs to exactly one method.",
                    "Consume '" + e.getTopic() + "' in one method of the stage. Other stages may consume it as well:"
                            + " each keeps its own order, holds and state.",
                    e);
        }
    }

    static final class TopicTypeMismatchFailureAnalyzer extends AbstractFailureAnalyzer<TopicTypeMismatchException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, TopicTypeMismatchException e) {
            String actual = e.getActual();
            String fitting = actual.contains("<") ? "Message" + actual.substring(actual.indexOf('<')) : "Message";
            return new FailureAnalysis("The method '" + e.getMethod() + "' on bean '" + e.getBeanName()
                    + "' takes '" + e.getExpected() + "', but topic '" + e.getTopic() + "' is declared as '"
                    + actual + "'.",
                    "Change the parameter to '" + fitting + "', or change the key and value types of the Topic bean"
                            + " for '" + e.getTopic() + "'.", e);
        }
    }

    static final class ProcessingGuaranteeFailureAnalyzer extends AbstractFailureAnalyzer<ProcessingGuaranteeException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, ProcessingGuaranteeException e) {
            return new FailureAnalysis("Parsley requires processing.guarantee 'exactly_once_v2', but '"
                    + e.getProperty() + "' is '" + e.getValue() + "'. Causal delivery commits hold queues, clocks,"
                    + " state, consumed offsets and outputs in one transaction; a weaker guarantee could lose or"
                    + " reorder records.",
                    "Remove '" + e.getProperty() + "', since Parsley sets 'exactly_once_v2' itself, or set it to"
                            + " 'exactly_once_v2'.", e);
        }
    }

    static final class StreamsCustomizerFailureAnalyzer extends AbstractFailureAnalyzer<StreamsCustomizerException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, StreamsCustomizerException e) {
            return new FailureAnalysis("The ParsleyStreamsCustomizer bean '" + e.getBeanName() + "' set '"
                    + e.getSetting() + "' to '" + e.getValue() + "', but Parsley requires '" + e.getRequired()
                    + "'. Causal delivery commits hold queues, clocks, state, consumed offsets and outputs in one"
                    + " transaction, fails a task rather than skip a record, and keys its stores and sender ids by"
                    + " the application id.",
                    "Remove '" + e.getSetting() + "' from the customizer bean '" + e.getBeanName()
                            + "'; Parsley sets it itself.", e);
        }
    }

    static final class MissingBootstrapServersFailureAnalyzer
            extends AbstractFailureAnalyzer<MissingBootstrapServersException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, MissingBootstrapServersException e) {
            return new FailureAnalysis("No Kafka bootstrap servers are configured for Parsley's Kafka Streams client.",
                    "Set 'spring.kafka.bootstrap-servers' or 'spring.kafka.streams.bootstrap-servers', or declare"
                            + " a KafkaConnectionDetails bean.", e);
        }
    }

    static final class MissingApplicationIdFailureAnalyzer extends AbstractFailureAnalyzer<MissingApplicationIdException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, MissingApplicationIdException e) {
            return new FailureAnalysis("No application id is configured for Parsley. It names the consumer group,"
                    + " the state changelogs, the tick topics and the sender ids, so it must be set and stay stable.",
                    "Set 'parsley.application-id', 'spring.kafka.streams.application-id' or 'spring.application.name'"
                            + " to a stable id.", e);
        }
    }

    static final class ClusterConnectionFailureAnalyzer extends AbstractFailureAnalyzer<ClusterConnectionException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, ClusterConnectionException e) {
            String settings = e.securitySettings().entrySet().stream()
                    .map(s -> s.getKey() + " '" + s.getValue() + "'").collect(Collectors.joining(", "));
            String servers = e.servers().stream().map(s -> "'" + s + "'").collect(Collectors.joining(", "));
            return new FailureAnalysis("Parsley could not connect to the Kafka cluster: " + what(e)
                    + " Servers tried, from 'spring.kafka.bootstrap-servers' (overridden by"
                    + " 'spring.kafka.streams.bootstrap-servers' or a KafkaConnectionDetails bean): " + servers
                    + ". Security settings in use: "
                    + settings + ". What the startup check saw within " + e.timeout().toMillis() + " ms: "
                    + String.join("; ", e.observations()) + ".", action(e), e);
        }

        private static String what(ClusterConnectionException e) {
            return switch (e.reason()) {
                case AUTHENTICATION_FAILED -> "authentication failed. A broker answered and rejected the client's"
                        + " credentials.";
                case SECURITY_PROTOCOL_MISMATCH -> "security protocol mismatch. A server accepted the connection but"
                        + " did not complete the handshake that the configured security settings call for.";
                case NO_BROKER_ANSWERING -> "no broker answering. No Kafka broker answered within the startup"
                        + " check timeout ('parsley.startup-check-timeout').";
            };
        }

        private static String action(ClusterConnectionException e) {
            return switch (e.reason()) {
                case AUTHENTICATION_FAILED -> "Correct the user name and password in"
                        + " 'spring.kafka.properties.sasl.jaas.config' for mechanism '"
                        + e.securitySettings().getOrDefault("sasl.mechanism", "?") + "' (set by"
                        + " 'spring.kafka.properties.sasl.mechanism'), and make sure the user exists on the cluster"
                        + " for that mechanism.";
                case SECURITY_PROTOCOL_MISMATCH -> "Set 'spring.kafka.security.protocol' to the protocol of the"
                        + " listener at these addresses (SASL_PLAINTEXT, SASL_SSL or SSL), with"
                        + " 'spring.kafka.properties.sasl.mechanism' and 'spring.kafka.properties.sasl.jaas.config'"
                        + " for SASL or 'spring.kafka.ssl.trust-store-location' for TLS, or point"
                        + " 'spring.kafka.bootstrap-servers' at a listener that matches the current settings.";
                case NO_BROKER_ANSWERING -> "Start the Kafka brokers, or set 'spring.kafka.bootstrap-servers' to"
                        + " host:port pairs of brokers this host can reach; if a server answered but its brokers did"
                        + " not, fix the brokers' advertised.listeners.";
            };
        }
    }

    static final class TopicAccessFailureAnalyzer extends AbstractFailureAnalyzer<TopicAccessException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, TopicAccessException e) {
            String topics = e.topics().stream().map(t -> "'" + t + "'").collect(Collectors.joining(", "));
            return new FailureAnalysis("The Kafka cluster refused this application's principal the "
                    + e.operation() + " operation on " + (e.topics().size() == 1 ? "topic " : "topics ") + topics
                    + ". Parsley does not guess what it may not see: a topic it cannot describe is not taken as"
                    + " absent, uncompacted or empty. " + e.getMessage(),
                    "Grant the principal of 'spring.kafka.properties.sasl.jaas.config' (or of the client"
                            + " certificate) the missing ACL, for example: " + e.acl() + ". docs/security.md lists"
                            + " every ACL a Parsley application needs.", e);
        }
    }

    static final class MissingTopicsFailureAnalyzer extends AbstractFailureAnalyzer<MissingTopicsException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, MissingTopicsException e) {
            String topics = e.getMissing().entrySet().stream().map(t -> "'" + t.getKey() + "' (" + t.getValue() + ")")
                    .collect(Collectors.joining(", "));
            return new FailureAnalysis("These topics of application '" + e.getApplicationId() + "' do not exist on"
                    + " the Kafka cluster: " + topics + ". Parsley creates no topic unless 'parsley.topics.create' is"
                    + " 'true'.",
                    "Create the topics before starting the application, with cleanup.policy=delete (tick topics with"
                            + " as many partitions as the stage's widest source), or, for development, set"
                            + " 'parsley.topics.create=true' to let Parsley create them ('parsley.topics.partitions'"
                            + " and 'parsley.topics.replication-factor' size them).", e);
        }
    }

    static final class MissingDeadLetterTopicFailureAnalyzer
            extends AbstractFailureAnalyzer<MissingDeadLetterTopicException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, MissingDeadLetterTopicException e) {
            return new FailureAnalysis("The dead-letter topic '" + e.getTopic() + "', set by"
                    + " 'parsley.dead-letter-topic', does not exist on the Kafka cluster. Parsley writes a record it"
                    + " cannot handle there in the transaction that consumes it; without the topic that transaction"
                    + " could not commit, and the stage would stop at the first such record.",
                    "Create topic '" + e.getTopic() + "' with cleanup.policy=delete, correct"
                            + " 'parsley.dead-letter-topic' if it names another topic, or remove it to stop the"
                            + " application on a record it cannot handle; for development, 'parsley.topics.create=true'"
                            + " creates it.", e);
        }
    }

    static final class StateDirectoryInUseFailureAnalyzer extends AbstractFailureAnalyzer<StateDirectoryInUseException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, StateDirectoryInUseException e) {
            return new FailureAnalysis("The Kafka Streams state directory '" + e.getDirectory() + "' of application '"
                    + e.getApplicationId() + "' is locked by another running instance, in this JVM or another process"
                    + " on this host. Instances must not share a state directory: each would take the other's"
                    + " stores, holds and clocks for its own.",
                    "Give each instance its own state directory with 'spring.kafka.streams.state-dir' (for example"
                            + " one per instance or per container volume), or stop the other instance first.", e);
        }
    }

    static final class QueryWithoutWebServerFailureAnalyzer
            extends AbstractFailureAnalyzer<QueryWithoutWebServerException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, QueryWithoutWebServerException e) {
            String type = e.getWebApplicationType() == null ? "" : " ('spring.main.web-application-type' is '"
                    + e.getWebApplicationType() + "')";
            return new FailureAnalysis("'parsley.query.enabled' is 'true', but this application is not a servlet web"
                    + " application with Spring MVC" + type + ", so the reads endpoint GET"
                    + " /parsley/state/{stage}/{key} cannot be served.",
                    "Add spring-boot-starter-webmvc to the application's dependencies and leave"
                            + " 'spring.main.web-application-type' unset, or set 'parsley.query.enabled' to 'false'"
                            + " and read state with CausalStreams.read from your own code.", e);
        }
    }
}
