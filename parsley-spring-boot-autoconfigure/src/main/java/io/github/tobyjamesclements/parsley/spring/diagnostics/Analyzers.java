package io.github.tobyjamesclements.parsley.spring.diagnostics;

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

    static final class DuplicateSourceFailureAnalyzer extends AbstractFailureAnalyzer<DuplicateSourceException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, DuplicateSourceException e) {
            return new FailureAnalysis("Topic '" + e.getTopic() + "' is the source of " + e.getFirst() + " and of "
                    + e.getSecond() + ", but each source topic belongs to exactly one method of one stage.",
                    "Consume '" + e.getTopic() + "' in one method, or run the two stages as separate applications.",
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
}
