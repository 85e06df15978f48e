package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.tobyjamesclements.parsley.ClusterCheckTests.Failure;
import io.github.tobyjamesclements.parsley.ClusterConnectionException.Reason;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.test.JaasUtils;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The startup cluster check against a real broker whose only client listener is SASL_PLAINTEXT
 * with the PLAIN mechanism: a wrong password is an authentication failure, a client without
 * security settings or with another mechanism is a security protocol mismatch, and the right
 * credentials pass. No password may appear in a message or in what the check logs. A second,
 * plaintext broker that advertises an address nobody listens on shows that a server which
 * answers is not mistaken for a mismatch when its brokers cannot be reached.
 */
class ClusterCheckIT {

    private static final String WRONG_PASSWORD = "not-the-secret-4711";
    private static final Duration SLACK = Duration.ofSeconds(4);
    private static final Parsley APP = Parsley.named("secured", Stage.named("relay")
            .on(Topic.of("secured-in", Codec.utf8(), Codec.utf8()), m -> List.of()).build());

    private static KafkaClusterTestKit cluster;

    @BeforeAll
    static void startSaslBroker() throws Exception {
        // The controller listener is SASL too, so the broker registers as the PLAIN super user under the authorizer.
        cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder().setCombined(true)
                .setNumBrokerNodes(1).setNumControllerNodes(1)
                .setBrokerSecurityProtocol(SecurityProtocol.SASL_PLAINTEXT)
                .setControllerSecurityProtocol(SecurityProtocol.SASL_PLAINTEXT).build()).build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
    }

    @AfterAll
    static void stopSaslBroker() throws Exception {
        cluster.close();
    }

    @Test
    void wrongPasswordFailsAsAuthenticationFailedNamingMechanismAndUser() {
        Failure f = ClusterCheckTests.run(APP, sasl("PLAIN", JaasUtils.KAFKA_PLAIN_USER1, WRONG_PASSWORD));

        assertThat(f.exception().reason()).isEqualTo(Reason.AUTHENTICATION_FAILED);
        assertThat(f.exception().servers()).containsExactly(cluster.bootstrapServers());
        assertThat(f.exception().securitySettings()).containsEntry("security.protocol", "SASL_PLAINTEXT")
                .containsEntry("sasl.mechanism", "PLAIN").containsEntry("sasl.jaas.config", "set")
                .containsEntry("user", JaasUtils.KAFKA_PLAIN_USER1);
        assertThat(f.exception()).hasMessageStartingWith("Cannot connect to the Kafka cluster: authentication failed;"
                        + " servers=[" + cluster.bootstrapServers() + "], security.protocol=SASL_PLAINTEXT,"
                        + " sasl.mechanism=PLAIN, sasl.jaas.config=set, user=plain-user1")
                .hasMessageContaining("the broker answered: Authentication failed: Invalid username or password")
                .hasMessageEndingWith("check the user name and password in sasl.jaas.config for the configured"
                        + " sasl.mechanism, and that the user exists on the cluster for that mechanism");
        assertNoSecret(f, WRONG_PASSWORD);
        assertThat(f.elapsed()).isLessThan(SLACK);
    }

    @Test
    void noSecuritySettingsOnASaslListenerFailsAsSecurityProtocolMismatch() {
        Failure f = ClusterCheckTests.streams(APP.withStartupCheckTimeout(Duration.ofSeconds(5)),
                cluster.bootstrapServers());

        assertThat(f.exception().reason()).isEqualTo(Reason.SECURITY_PROTOCOL_MISMATCH);
        assertThat(f.exception()).hasMessageStartingWith("Cannot connect to the Kafka cluster: security protocol"
                        + " mismatch; servers=[" + cluster.bootstrapServers() + "], security.protocol=PLAINTEXT"
                        + " (default), timeout=5000ms")
                .hasMessageContaining(cluster.bootstrapServers() + " accepted a TCP connection")
                .hasMessageContaining("what a SASL listener does to a client that does not authenticate");
        assertThat(f.elapsed()).isLessThan(Duration.ofSeconds(5).plus(SLACK));
        assertThat(f.lines()).isLessThan(300);
    }

    @Test
    void mechanismTheListenerDoesNotOfferFailsAsSecurityProtocolMismatch() {
        Failure f = ClusterCheckTests.run(APP, sasl("SCRAM-SHA-256", JaasUtils.KAFKA_PLAIN_USER1,
                JaasUtils.KAFKA_PLAIN_USER1_PASSWORD));

        assertThat(f.exception().reason()).isEqualTo(Reason.SECURITY_PROTOCOL_MISMATCH);
        assertThat(f.exception()).hasMessageContaining("sasl.mechanism=SCRAM-SHA-256")
                .hasMessageContaining("enabled mechanisms are [PLAIN]");
        assertNoSecret(f, JaasUtils.KAFKA_PLAIN_USER1_PASSWORD);
        assertThat(f.elapsed()).isLessThan(SLACK);
    }

    @Test
    void brokerAdvertisingAnUnreachableAddressFailsAsNoBrokerAnswering() throws Exception {
        String unreachable = "localhost:" + ClusterCheckTests.freePort();
        try (KafkaClusterTestKit misadvertised = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
                .setConfigProp("advertised.listeners", "EXTERNAL://" + unreachable).build()) {
            misadvertised.format();
            misadvertised.startup();
            Failure f = ClusterCheckTests.streams(APP.withStartupCheckTimeout(Duration.ofSeconds(5)),
                    misadvertised.bootstrapServers());

            assertThat(f.exception().reason()).isEqualTo(Reason.NO_BROKER_ANSWERING);
            assertThat(f.exception()).hasMessageContaining(misadvertised.bootstrapServers()
                            + " accepted a TCP connection")
                    .hasMessageContaining("the brokers it advertises may be unreachable from here"
                            + " (advertised.listeners)");
            assertThat(f.elapsed()).isLessThan(Duration.ofSeconds(5).plus(SLACK));
        }
    }

    @Test
    void rightCredentialsPassTheCheck() {
        APP.checkCluster(sasl("PLAIN", JaasUtils.KAFKA_PLAIN_USER1, JaasUtils.KAFKA_PLAIN_USER1_PASSWORD));
    }

    private static Properties sasl(String mechanism, String user, String password) {
        String module = mechanism.equals("PLAIN") ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                : "org.apache.kafka.common.security.scram.ScramLoginModule";
        Properties p = new Properties();
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        p.put(SaslConfigs.SASL_MECHANISM, mechanism);
        p.put(SaslConfigs.SASL_JAAS_CONFIG, module + " required username=\"" + user + "\" password=\"" + password
                + "\";");
        return p;
    }

    private static void assertNoSecret(Failure f, String password) {
        assertThat(f.exception().getMessage()).doesNotContain(password);
        assertThat(f.exception().securitySettings().values()).noneMatch(v -> v.contains(password));
        assertThat(f.exception().observations()).noneMatch(v -> v.contains(password));
        assertThat(f.log()).doesNotContain(password);
    }
}
