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
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.streams.StreamsConfig;
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

    /** A user of the suite's secured broker ({@link SecureKafka}), which the other secured ITs share. */
    private static final String USER = "probe";

    @Test
    void wrongPasswordFailsAsAuthenticationFailedNamingMechanismAndUser() {
        Failure f = ClusterCheckTests.run(APP, sasl("PLAIN", USER, WRONG_PASSWORD));

        assertThat(f.exception().reason()).isEqualTo(Reason.AUTHENTICATION_FAILED);
        assertThat(f.exception().servers()).containsExactly(SecureKafka.bootstrap());
        assertThat(f.exception().securitySettings()).containsEntry("security.protocol", "SASL_PLAINTEXT")
                .containsEntry("sasl.mechanism", "PLAIN").containsEntry("sasl.jaas.config", "set")
                .containsEntry("user", USER);
        assertThat(f.exception()).hasMessageStartingWith("Cannot connect to the Kafka cluster: authentication failed;"
                        + " servers=[" + SecureKafka.bootstrap() + "], security.protocol=SASL_PLAINTEXT,"
                        + " sasl.mechanism=PLAIN, sasl.jaas.config=set, user=probe")
                .hasMessageContaining("the broker answered: Authentication failed: Invalid username or password")
                .hasMessageEndingWith("check the user name and password in sasl.jaas.config for the configured"
                        + " sasl.mechanism, and that the user exists on the cluster for that mechanism");
        assertNoSecret(f, WRONG_PASSWORD);
        assertThat(f.elapsed()).isLessThan(SLACK);
    }

    @Test
    void noSecuritySettingsOnASaslListenerFailsAsSecurityProtocolMismatch() {
        Failure f = ClusterCheckTests.streams(APP.withStartupCheckTimeout(Duration.ofSeconds(5)),
                SecureKafka.bootstrap());

        assertThat(f.exception().reason()).isEqualTo(Reason.SECURITY_PROTOCOL_MISMATCH);
        assertThat(f.exception()).hasMessageStartingWith("Cannot connect to the Kafka cluster: security protocol"
                        + " mismatch; servers=[" + SecureKafka.bootstrap() + "], security.protocol=PLAINTEXT"
                        + " (default), timeout=5000ms")
                .hasMessageContaining(SecureKafka.bootstrap() + " accepted a TCP connection")
                .hasMessageContaining("what a SASL listener does to a client that does not authenticate");
        assertThat(f.elapsed()).isLessThan(Duration.ofSeconds(5).plus(SLACK));
        assertThat(f.lines()).isLessThan(300);
    }

    @Test
    void mechanismTheListenerDoesNotOfferFailsAsSecurityProtocolMismatch() {
        Failure f = ClusterCheckTests.run(APP, sasl("SCRAM-SHA-256", USER,
                SecureKafka.password(USER)));

        assertThat(f.exception().reason()).isEqualTo(Reason.SECURITY_PROTOCOL_MISMATCH);
        assertThat(f.exception()).hasMessageContaining("sasl.mechanism=SCRAM-SHA-256")
                .hasMessageContaining("enabled mechanisms are [PLAIN]");
        assertNoSecret(f, SecureKafka.password(USER));
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
        APP.checkCluster(sasl("PLAIN", USER, SecureKafka.password(USER)));
    }

    private static Properties sasl(String mechanism, String user, String password) {
        String module = mechanism.equals("PLAIN") ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                : "org.apache.kafka.common.security.scram.ScramLoginModule";
        Properties p = new Properties();
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, SecureKafka.bootstrap());
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
