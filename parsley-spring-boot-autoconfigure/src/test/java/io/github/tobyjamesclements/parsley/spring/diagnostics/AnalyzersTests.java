package io.github.tobyjamesclements.parsley.spring.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.ClusterConnectionException;
import io.github.tobyjamesclements.parsley.ClusterConnectionException.Reason;
import io.github.tobyjamesclements.parsley.TopicAccessException;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.acl.AclOperation;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * Tests for the failure analyzers in {@link Analyzers}: each builds its exception, analyzes it
 * (wrapped as a bean creation failure, as at startup) and checks the description and action.
 */
class AnalyzersTests {

    @Test
    void invalidCausalMethodNamesTheMethodTheRuleAndTheFix() {
        FailureAnalysis analysis = analyze(new Analyzers.InvalidCausalMethodFailureAnalyzer(),
                new InvalidCausalMethodException("notifier", "Notifier.onOrder(String)", "@CausalHandler",
                        "it must take exactly one parameter of type Message<K, V>",
                        "Declare one parameter of type Message<K, V>."));
        assertThat(analysis.getDescription()).isEqualTo("The @CausalHandler method 'Notifier.onOrder(String)' on"
                + " bean 'notifier' is invalid: it must take exactly one parameter of type Message<K, V>.");
        assertThat(analysis.getAction()).isEqualTo("Declare one parameter of type Message<K, V>.");
    }

    @Test
    void unknownTopicListsTheDeclaredTopics() {
        FailureAnalysis analysis = analyze(new Analyzers.UnknownTopicFailureAnalyzer(),
                new UnknownTopicException("notifier", "Notifier.onRefund(Message)", "refunds",
                        List.of("orders", "payments")));
        assertThat(analysis.getDescription()).isEqualTo("The method 'Notifier.onRefund(Message)' on bean 'notifier'"
                + " names topic 'refunds', but no Topic bean is declared for it. Declared topics: 'orders',"
                + " 'payments'.");
        assertThat(analysis.getAction()).isEqualTo("Declare a Topic bean for 'refunds', such as"
                + " Topic.of(\"refunds\", keyCodec, valueCodec), or correct the topic name in the annotation.");
    }

    @Test
    void unknownTopicSaysWhenNoTopicIsDeclared() {
        FailureAnalysis analysis = analyze(new Analyzers.UnknownTopicFailureAnalyzer(),
                new UnknownTopicException("notifier", "Notifier.onRefund(Message)", "refunds", List.of()));
        assertThat(analysis.getDescription()).endsWith("but no Topic bean is declared for it. No Topic bean is"
                + " declared at all.");
    }

    @Test
    void duplicateSourceNamesBothConsumers() {
        FailureAnalysis analysis = analyze(new Analyzers.DuplicateSourceFailureAnalyzer(),
                new DuplicateSourceException("orders", "stage 'billing' (billing.onOrder)",
                        "stage 'billing' (refunds.onOrder)"));
        assertThat(analysis.getDescription()).isEqualTo("Topic 'orders' is the source of stage 'billing'"
                + " (billing.onOrder) and of stage 'billing' (refunds.onOrder), but within one stage each source"
                + " topic belongs to exactly one method.");
        assertThat(analysis.getAction()).isEqualTo("Consume 'orders' in one method of the stage. Other stages may"
                + " consume it as well: each keeps its own order, holds and state.");
    }

    @Test
    void topicTypeMismatchSuggestsTheFittingMessageType() {
        FailureAnalysis analysis = analyze(new Analyzers.TopicTypeMismatchFailureAnalyzer(),
                new TopicTypeMismatchException("notifier", "Notifier.onOrder(Message)", "orders",
                        "Message<String, Integer>", "Topic<String, OrderCreated>"));
        assertThat(analysis.getDescription()).isEqualTo("The method 'Notifier.onOrder(Message)' on bean 'notifier'"
                + " takes 'Message<String, Integer>', but topic 'orders' is declared as"
                + " 'Topic<String, OrderCreated>'.");
        assertThat(analysis.getAction()).isEqualTo("Change the parameter to 'Message<String, OrderCreated>', or"
                + " change the key and value types of the Topic bean for 'orders'.");
    }

    @Test
    void processingGuaranteeNamesThePropertyAndItsValue() {
        FailureAnalysis analysis = analyze(new Analyzers.ProcessingGuaranteeFailureAnalyzer(),
                new ProcessingGuaranteeException("spring.kafka.streams.properties.processing.guarantee",
                        "at_least_once"));
        assertThat(analysis.getDescription()).isEqualTo("Parsley requires processing.guarantee 'exactly_once_v2',"
                + " but 'spring.kafka.streams.properties.processing.guarantee' is 'at_least_once'. Causal delivery"
                + " commits hold queues, clocks, state, consumed offsets and outputs in one transaction; a weaker"
                + " guarantee could lose or reorder records.");
        assertThat(analysis.getAction()).isEqualTo("Remove 'spring.kafka.streams.properties.processing.guarantee',"
                + " since Parsley sets 'exactly_once_v2' itself, or set it to 'exactly_once_v2'.");
    }

    @Test
    void missingBootstrapServersNamesTheProperties() {
        FailureAnalysis analysis = analyze(new Analyzers.MissingBootstrapServersFailureAnalyzer(),
                new MissingBootstrapServersException());
        assertThat(analysis.getDescription()).isEqualTo("No Kafka bootstrap servers are configured for Parsley's"
                + " Kafka Streams client.");
        assertThat(analysis.getAction()).isEqualTo("Set 'spring.kafka.bootstrap-servers' or"
                + " 'spring.kafka.streams.bootstrap-servers', or declare a KafkaConnectionDetails bean.");
    }

    @Test
    void missingApplicationIdNamesTheFallbackChain() {
        FailureAnalysis analysis = analyze(new Analyzers.MissingApplicationIdFailureAnalyzer(),
                new MissingApplicationIdException());
        assertThat(analysis.getDescription()).isEqualTo("No application id is configured for Parsley. It names the"
                + " consumer group, the state changelogs, the tick topics and the sender ids, so it must be set and"
                + " stay stable.");
        assertThat(analysis.getAction()).isEqualTo("Set 'parsley.application-id',"
                + " 'spring.kafka.streams.application-id' or 'spring.application.name' to a stable id.");
    }

    @Test
    void noBrokerAnsweringNamesTheBootstrapPropertyTheServersAndTheSecuritySettings() {
        FailureAnalysis analysis = analyze(new Analyzers.ClusterConnectionFailureAnalyzer(),
                connectionFailure(Reason.NO_BROKER_ANSWERING, Map.of("security.protocol", "PLAINTEXT (default)"),
                        List.of("kafka-1:9092 refused the connection", "kafka-2:9092: unknown host")));
        assertThat(analysis.getDescription()).isEqualTo("Parsley could not connect to the Kafka cluster: no broker"
                + " answering. No Kafka broker answered within the startup check timeout"
                + " ('parsley.startup-check-timeout'). Servers tried, from 'spring.kafka.bootstrap-servers'"
                + " (overridden by 'spring.kafka.streams.bootstrap-servers' or a KafkaConnectionDetails bean):"
                + " 'kafka-1:9092', 'kafka-2:9092'. Security settings in use: security.protocol 'PLAINTEXT"
                + " (default)'. What the startup check saw within 15000 ms: kafka-1:9092 refused the connection;"
                + " kafka-2:9092: unknown host.");
        assertThat(analysis.getAction()).isEqualTo("Start the Kafka brokers, or set 'spring.kafka.bootstrap-servers'"
                + " to host:port pairs of brokers this host can reach; if a server answered but its brokers did not,"
                + " fix the brokers' advertised.listeners.");
    }

    @Test
    void securityProtocolMismatchSaysWhichPropertiesSelectTheProtocol() {
        FailureAnalysis analysis = analyze(new Analyzers.ClusterConnectionFailureAnalyzer(),
                connectionFailure(Reason.SECURITY_PROTOCOL_MISMATCH, Map.of("security.protocol",
                        "PLAINTEXT (default)"), List.of("kafka-1:9092 accepted a TCP connection")));
        assertThat(analysis.getDescription()).startsWith("Parsley could not connect to the Kafka cluster: security"
                + " protocol mismatch. A server accepted the connection but did not complete the handshake that the"
                + " configured security settings call for.")
                .contains("security.protocol 'PLAINTEXT (default)'", "kafka-1:9092 accepted a TCP connection");
        assertThat(analysis.getAction()).startsWith("Set 'spring.kafka.security.protocol' to the protocol of the"
                + " listener at these addresses").contains("'spring.kafka.properties.sasl.jaas.config'",
                "'spring.kafka.ssl.trust-store-location'");
    }

    @Test
    void authenticationFailedNamesMechanismAndUser() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("security.protocol", "SASL_SSL");
        settings.put("sasl.mechanism", "SCRAM-SHA-512");
        settings.put("sasl.jaas.config", "set");
        settings.put("user", "shop");
        settings.put("ssl.truststore.location", "/etc/kafka/truststore.p12");
        FailureAnalysis analysis = analyze(new Analyzers.ClusterConnectionFailureAnalyzer(),
                connectionFailure(Reason.AUTHENTICATION_FAILED, settings,
                        List.of("the broker answered: Authentication failed during authentication due to invalid"
                                + " credentials with SASL mechanism SCRAM-SHA-512")));
        assertThat(analysis.getDescription()).startsWith("Parsley could not connect to the Kafka cluster:"
                + " authentication failed. A broker answered and rejected the client's credentials.")
                .contains("Security settings in use: security.protocol 'SASL_SSL', sasl.mechanism 'SCRAM-SHA-512',"
                        + " sasl.jaas.config 'set', user 'shop', ssl.truststore.location '/etc/kafka/truststore.p12'.");
        assertThat(analysis.getAction()).isEqualTo("Correct the user name and password in"
                + " 'spring.kafka.properties.sasl.jaas.config' for mechanism 'SCRAM-SHA-512' (set by"
                + " 'spring.kafka.properties.sasl.mechanism'), and make sure the user exists on the cluster for that"
                + " mechanism.");
    }

    @Test
    void analyzerIgnoresOtherFailures() {
        assertThat(new Analyzers.UnknownTopicFailureAnalyzer().analyze(new IllegalStateException("other")))
                .isNull();
    }

    @Test
    void everyAnalyzerIsRegisteredInSpringFactories() {
        List<String> registered = SpringFactoriesLoader.forDefaultResourceLocation().load(FailureAnalyzer.class,
                null, SpringFactoriesLoader.FailureHandler.handleMessage((message, e) -> { })).stream()
                .map(a -> a.getClass()).filter(c -> c.getEnclosingClass() == Analyzers.class)
                .map(Class::getSimpleName).toList();
        List<String> declared = Arrays.stream(Analyzers.class.getDeclaredClasses())
                .filter(FailureAnalyzer.class::isAssignableFrom).map(Class::getSimpleName).toList();
        assertThat(declared).hasSize(15);
        assertThat(registered).containsExactlyInAnyOrderElementsOf(declared);
    }

    private static ClusterConnectionException connectionFailure(Reason reason, Map<String, String> settings,
            List<String> observations) {
        return new ClusterConnectionException(reason, List.of("kafka-1:9092", "kafka-2:9092"), settings, observations,
                Duration.ofSeconds(15), null);
    }

    private static FailureAnalysis analyze(FailureAnalyzer analyzer, Exception failure) {
        FailureAnalysis analysis = analyzer.analyze(new BeanCreationException("parsley", "failed", failure));
        assertThat(analysis).isNotNull();
        assertThat(analysis.getCause()).isSameAs(failure);
        return analysis;
    }

    @Test
    void topicAccessNamesTheOperationTheTopicsAndTheAclToGrant() {
        TopicAccessException denied = new TopicAccessException("Not authorized to DESCRIBE_CONFIGS topics [orders,"
                + " payments]", AclOperation.DESCRIBE_CONFIGS, List.of("payments", "orders"), null);
        FailureAnalysis analysis = analyze(new Analyzers.TopicAccessFailureAnalyzer(), denied);
        assertThat(analysis.getDescription()).startsWith("The Kafka cluster refused this application's principal"
                + " the DESCRIBE_CONFIGS operation on topics 'orders', 'payments'.")
                .endsWith("Not authorized to DESCRIBE_CONFIGS topics [orders, payments]");
        assertThat(analysis.getAction()).contains(denied.acl()).contains("docs/security.md");
        assertThat(denied.acl()).contains("--operation DescribeConfigs").contains("orders").contains("payments");
    }
    @Test
    void queryWithoutWebServerNamesTheWebApplicationTypeAndBothFixes() {
        FailureAnalysis analysis = analyze(new Analyzers.QueryWithoutWebServerFailureAnalyzer(),
                new QueryWithoutWebServerException("none"));
        assertThat(analysis.getDescription()).isEqualTo("'parsley.query.enabled' is 'true', but this application is"
                + " not a servlet web application with Spring MVC ('spring.main.web-application-type' is 'none'), so"
                + " the reads endpoint GET /parsley/state/{stage}/{key} cannot be served.");
        assertThat(analysis.getAction()).isEqualTo("Add spring-boot-starter-webmvc to the application's dependencies"
                + " and leave 'spring.main.web-application-type' unset, or set 'parsley.query.enabled' to 'false' and"
                + " read state with CausalStreams.read from your own code.");
    }

    @Test
    void queryWithoutWebServerLeavesOutAnUnsetWebApplicationType() {
        FailureAnalysis analysis = analyze(new Analyzers.QueryWithoutWebServerFailureAnalyzer(),
                new QueryWithoutWebServerException(null));
        assertThat(analysis.getDescription()).contains("with Spring MVC, so").doesNotContain("web-application-type");
    }
}
