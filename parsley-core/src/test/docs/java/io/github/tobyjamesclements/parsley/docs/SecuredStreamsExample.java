package io.github.tobyjamesclements.parsley.docs;

// tag::secured-streams[]
import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.Parsley;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.streams.StreamsConfig;
// end::secured-streams[]
import io.github.tobyjamesclements.parsley.Stage;

/** {@code Parsley.streams} over SASL_SSL without Spring, as docs/security.md shows it. */
final class SecuredStreamsExample {

    private SecuredStreamsExample() {
    }

    static CausalStreams streams(Stage notifier) {
        // tag::secured-streams[]
        Properties p = new Properties();
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "broker-1:9093,broker-2:9093");
        p.put(StreamsConfig.STATE_DIR_CONFIG, "/var/lib/notifier");
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL");
        p.put(SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-512");
        p.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule required"
                + " username=\"notifier\" password=\"" + System.getenv("KAFKA_PASSWORD") + "\";");
        p.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, "/etc/kafka/truststore.p12");
        p.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, System.getenv("TRUSTSTORE_PASSWORD"));
        p.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
        CausalStreams streams = Parsley.named("notifier", notifier).streams(p);
        // end::secured-streams[]
        return streams;
    }
}
