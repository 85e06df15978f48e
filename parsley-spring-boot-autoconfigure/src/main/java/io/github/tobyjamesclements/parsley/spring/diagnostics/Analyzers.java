package io.github.tobyjamesclements.parsley.spring.diagnostics;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** The failure analyzers of Parsley's startup exceptions, one per exception. */
final class Analyzers {

    private Analyzers() {
    }

    static final class InvalidCausalMethodFailureAnalyzer extends AbstractFailureAnalyzer<InvalidCausalMethodException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, InvalidCausalMethodException e) {
            return new FailureAnalysis("The " + e.getAnnotation() + " method '" + e.getMethod() + "' on bean '"
                    + e.getBeanName() + "' is invalid: " + e.getRule(),
                    "Change the method to fit the rule; the accepted signatures are listed in the javadoc of "
                            + e.getAnnotation() + ".", e);
        }
    }

    static final class UnknownTopicFailureAnalyzer extends AbstractFailureAnalyzer<UnknownTopicException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, UnknownTopicException e) {
            return new FailureAnalysis("The method '" + e.getMethod() + "' on bean '" + e.getBeanName()
                    + "' names topic '" + e.getTopic() + "', but no Topic bean has that name. Declared topics: "
                    + e.getKnownTopics() + ".",
                    "Declare a Topic bean named '" + e.getTopic() + "' (Topic.of(\"" + e.getTopic()
                            + "\", keyCodec, valueCodec)), or correct the topic name in the annotation.", e);
        }
    }

    static final class DuplicateSourceFailureAnalyzer extends AbstractFailureAnalyzer<DuplicateSourceException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, DuplicateSourceException e) {
            return new FailureAnalysis("Topic '" + e.getTopic() + "' is the source of " + e.getFirst() + " and of "
                    + e.getSecond() + ". Each source topic belongs to exactly one method of one stage.",
                    "Consume '" + e.getTopic() + "' in one method, or run the two stages as separate applications.",
                    e);
        }
    }

    static final class TopicTypeMismatchFailureAnalyzer extends AbstractFailureAnalyzer<TopicTypeMismatchException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, TopicTypeMismatchException e) {
            return new FailureAnalysis("The method '" + e.getMethod() + "' on bean '" + e.getBeanName()
                    + "' takes '" + e.getExpected() + "', but topic '" + e.getTopic() + "' is declared as '"
                    + e.getActual() + "'.",
                    "Make the method's Message type parameters match the Topic bean '" + e.getTopic()
                            + "', or change the topic's codecs.", e);
        }
    }

    static final class ProcessingGuaranteeFailureAnalyzer extends AbstractFailureAnalyzer<ProcessingGuaranteeException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, ProcessingGuaranteeException e) {
            return new FailureAnalysis("Parsley requires processing.guarantee=exactly_once_v2, but property '"
                    + e.getProperty() + "' is '" + e.getValue() + "'. Causal delivery commits hold queues, clocks,"
                    + " state, consumed offsets and outputs in one transaction; any weaker guarantee could lose or"
                    + " reorder records.",
                    "Remove '" + e.getProperty() + "' (Parsley sets exactly_once_v2 itself) or set it to"
                            + " 'exactly_once_v2'.", e);
        }
    }

    static final class MissingBootstrapServersFailureAnalyzer
            extends AbstractFailureAnalyzer<MissingBootstrapServersException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, MissingBootstrapServersException e) {
            return new FailureAnalysis("No Kafka bootstrap servers are configured for Parsley's Kafka Streams client.",
                    "Set 'spring.kafka.bootstrap-servers' (or 'spring.kafka.streams.bootstrap-servers'), or declare"
                            + " a KafkaConnectionDetails bean.", e);
        }
    }

    static final class MissingApplicationIdFailureAnalyzer extends AbstractFailureAnalyzer<MissingApplicationIdException> {
        @Override
        protected FailureAnalysis analyze(Throwable root, MissingApplicationIdException e) {
            return new FailureAnalysis("No application id is configured for Parsley. It names the consumer group,"
                    + " the state changelogs, the tick topics and the sender ids, so it must be set and stay stable.",
                    "Set 'parsley.application-id' (or 'spring.kafka.streams.application-id' or"
                            + " 'spring.application.name').", e);
        }
    }
}
