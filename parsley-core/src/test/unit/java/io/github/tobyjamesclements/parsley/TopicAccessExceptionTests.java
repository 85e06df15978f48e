package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

class TopicAccessExceptionTests {

    @Test
    void messageNamesTheOperationTheTopicsWhyAndTheCommandThatGrantsIt() {
        TopicAuthorizationException cause = new TopicAuthorizationException("Topic authorization failed.");
        TopicAccessException e = TopicAccessException.denied(AclOperation.DESCRIBE_CONFIGS,
                List.of("payments", "orders", "payments"), "Parsley reads the cleanup policy", cause);

        assertThat(e.operation()).isEqualTo(AclOperation.DESCRIBE_CONFIGS);
        assertThat(e.topics()).containsExactly("orders", "payments");
        assertThat(e.acl()).isEqualTo("kafka-acls.sh --bootstrap-server <broker> --command-config"
                + " <admin-client.properties> --add --allow-principal User:<principal> --operation DescribeConfigs"
                + " --topic orders --topic payments");
        assertThat(e.getMessage()).isEqualTo("Not authorized to DESCRIBE_CONFIGS topics [orders, payments]; Parsley"
                + " reads the cleanup policy; grant the principal DescribeConfigs on them: " + e.acl()
                + " (every ACL Parsley needs: docs/security.md)");
        assertThat(e.getCause()).isSameAs(cause);
    }

    @Test
    void oneTopicIsNamedAsOne() {
        TopicAccessException e = TopicAccessException.denied(AclOperation.DESCRIBE, List.of("audit"), "why", null);

        assertThat(e.getMessage()).startsWith("Not authorized to DESCRIBE topic audit; why; grant the principal"
                + " Describe on it: ").endsWith("--operation Describe --topic audit (every ACL Parsley needs:"
                + " docs/security.md)");
    }

    @Test
    void operationsAreSpelledAsKafkaAclsSpellsThem() {
        assertThat(TopicAccessException.cliName(AclOperation.IDEMPOTENT_WRITE)).isEqualTo("IdempotentWrite");
        assertThat(TopicAccessException.cliName(AclOperation.READ)).isEqualTo("Read");
    }

    @Test
    void refusesToNameNoTopic() {
        assertThatThrownBy(() -> new TopicAccessException("m", AclOperation.DESCRIBE, List.of(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one topic");
    }
}
