package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.Test;

/**
 * What a connection failure may show of a client's security settings: the allowlisted settings
 * and the SASL user, never a password, key or JAAS text.
 */
class ClientSecurityTests {

    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"alice\" password=\"s3cr\\\"et-pw\";";

    @Test
    void plaintextByDefaultShowsOnlyTheProtocol() {
        assertThat(ClientSecurity.of(Map.of()).summary())
                .containsExactly(Map.entry("security.protocol", "PLAINTEXT (default)"));
    }

    @Test
    void saslShowsMechanismUserAndWhetherJaasIsSetButNoPassword() {
        Map<String, Object> config = new HashMap<>();
        config.put("security.protocol", "SASL_SSL");
        config.put("sasl.jaas.config", new Password(JAAS));
        config.put("ssl.truststore.location", "/etc/kafka/truststore.p12");
        config.put("ssl.truststore.password", "trust-pw-123");

        ClientSecurity security = ClientSecurity.of(config);

        assertThat(security.summary()).containsExactly(Map.entry("security.protocol", "SASL_SSL"),
                Map.entry("sasl.mechanism", "GSSAPI (default)"), Map.entry("sasl.jaas.config", "set"),
                Map.entry("user", "alice"), Map.entry("ssl.truststore.location", "/etc/kafka/truststore.p12"));
        assertThat(security.summary().toString()).doesNotContain("pw");
    }

    @Test
    void tlsWithoutTrustStoreSaysSo() {
        assertThat(ClientSecurity.of(Map.of("security.protocol", "SSL")).summary())
                .containsEntry("ssl.truststore.location", "not set");
    }

    @Test
    void maskHidesEverySecretValueEvenInsideAServerAnswer() {
        Map<String, Object> config = new HashMap<>();
        config.put("security.protocol", "SASL_PLAINTEXT");
        config.put("sasl.jaas.config", JAAS);
        config.put("ssl.key.password", "key-pw-456");
        config.put("sasl.oauthbearer.client.credentials.client.secret", "oauth-789");

        ClientSecurity security = ClientSecurity.of(config);

        assertThat(security.mask("echo s3cr\\\"et-pw key-pw-456 oauth-789 for alice"))
                .isEqualTo("echo **** **** **** for alice");
    }
}
