package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.CausalHandler;
import io.github.tobyjamesclements.parsley.spring.SecuredBroker;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;

/**
 * The security settings Boot binds reach the admin clients Parsley opens while the context starts
 * (topic resolution and provisioning), on a SASL_PLAINTEXT broker that denies what no ACL allows,
 * and a denied request fails startup naming the ACL. Streams are not started: the clients under
 * test connect during bean creation.
 */
class SecuredStreamsAutoConfigurationTests {

    private static final String USER = "shop";

    private static final String PASSWORD = "shop-secret";

    private static final String PLAIN = "org.apache.kafka.common.security.plain.PlainLoginModule";

    private static SecuredBroker broker;

    @TempDir
    static Path stateDir;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class,
                    ParsleyStreamsAutoConfiguration.class))
            .withUserConfiguration(TestShop.APPLICATION)
            .withPropertyValues("spring.application.name=shop",
                    "spring.kafka.bootstrap-servers=" + broker.bootstrapServers(),
                    "spring.kafka.security.protocol=SASL_PLAINTEXT", "spring.kafka.properties.sasl.mechanism=PLAIN",
                    "spring.kafka.streams.state-dir=" + stateDir, "spring.kafka.streams.auto-startup=false",
                    "parsley.topics.create=true");

    @BeforeAll
    static void startBroker() throws Exception {
        broker = SecuredBroker.start(USER, PASSWORD);
        List<String> sources = List.of("orders", "payments", "amounts");
        List<String> sinks = List.of("notifications", "totals");
        broker.createTopics(1, sources);
        broker.createTopics(1, sinks);
        broker.grantApplication(USER, "shop", sources, sinks);
        // Describe but not Create: the provisioner may learn that "refunds" is missing, not create it.
        broker.grant(USER, ResourceType.TOPIC, "refunds", AclOperation.DESCRIBE);
    }

    @AfterAll
    static void stopBroker() throws Exception {
        broker.close();
    }

    @Test
    void saslJaasConfigPropertyReachesParsleysAdminClients() {
        contextRunner.withPropertyValues(jaasConfig())
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(CausalStreams.class));
    }

    @Test
    void springKafkaJaasLoginIsInstalledBeforeParsleyConnects() {
        contextRunner.withPropertyValues("spring.kafka.jaas.enabled=true", "spring.kafka.jaas.login-module=" + PLAIN,
                "spring.kafka.jaas.options.username=" + USER, "spring.kafka.jaas.options.password=" + PASSWORD)
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(CausalStreams.class));
    }

    @Test
    void provisioningThatMayNotCreateAMissingTopicNamesTheTopicAndTheAcl() {
        contextRunner.withUserConfiguration(Refunds.class).withPropertyValues(jaasConfig()).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(TopicAuthorizationException.class);
            assertThat(context.getStartupFailure()).hasStackTraceContaining("Cannot create topic; topic=refunds:")
                    .hasStackTraceContaining("the application's principal needs Create on the topic");
        });
    }

    @Test
    void provisioningThatMayNotDescribeATopicNamesTheTopicAndTheAcl() {
        contextRunner.withUserConfiguration(Returns.class).withPropertyValues(jaasConfig()).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining("Cannot describe topic; topic=returns:")
                    .hasStackTraceContaining("the application's principal needs Describe on the topic");
        });
    }

    @Test
    void startupFailsOnAWrongPassword() {
        contextRunner.withPropertyValues("spring.kafka.properties.sasl.jaas.config="
                + SecuredBroker.jaasConfig(USER, "not-" + PASSWORD)).run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .isInstanceOf(SaslAuthenticationException.class);
                });
    }

    private static String jaasConfig() {
        return "spring.kafka.properties.sasl.jaas.config=" + SecuredBroker.jaasConfig(USER, PASSWORD);
    }

    /** A stage on a topic that does not exist, which the application may describe but not create. */
    static class Refunds {

        @Bean
        Topic<String, String> refunds() {
            return Topic.of("refunds", Codec.utf8(), Codec.utf8());
        }

        @CausalHandler(stage = "refunder", source = "refunds")
        void onRefund(Message<String, String> m) {
        }
    }

    /** A stage on a topic the application may not even describe. */
    static class Returns {

        @Bean
        Topic<String, String> returns() {
            return Topic.of("returns", Codec.utf8(), Codec.utf8());
        }

        @CausalHandler(stage = "returner", source = "returns")
        void onReturn(Message<String, String> m) {
        }
    }
}
