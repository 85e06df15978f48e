package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Thrown by the startup cluster check of {@link Parsley#streams} and {@link Parsley#checkCluster}
 * when the client cannot talk to the Kafka cluster, saying which of three causes it found: the
 * cluster refused the client's credentials, a server answered but not in the security protocol
 * the client was configured for, or no broker answered at all.
 *
 * <p>The message and the accessors name the bootstrap servers tried, the security settings in use
 * and what the check saw at each server. They never carry a secret: passwords, key material and
 * the JAAS configuration are left out, and any secret value found in a server's answer is masked.
 * Immutable; its lists and map are unmodifiable.
 */
public class ClusterConnectionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why the client could not talk to the cluster. */
    public enum Reason {

        /** A broker answered and rejected the client's credentials (a wrong user name or password). */
        AUTHENTICATION_FAILED("authentication failed", "check the user name and password in sasl.jaas.config"
                + " for the configured sasl.mechanism, and that the user exists on the cluster for that mechanism"),

        /**
         * A server accepted the connection but did not complete the handshake the client's
         * security settings call for: a plaintext client on a SASL or TLS listener, a TLS handshake
         * that failed, a SASL client on a listener without SASL or with other mechanisms, or a port
         * that is not Kafka's.
         */
        SECURITY_PROTOCOL_MISMATCH("security protocol mismatch", "set security.protocol to the protocol of the"
                + " listener at these addresses, with sasl.mechanism and sasl.jaas.config for SASL and the"
                + " ssl.truststore settings for TLS, or point bootstrap.servers at a listener that matches the"
                + " current settings"),

        /**
         * No broker answered in time: nothing listening, a host that does not resolve, a network
         * that drops the connection, or brokers whose advertised addresses cannot be reached.
         */
        NO_BROKER_ANSWERING("no broker answering", "check that the brokers are running and that bootstrap.servers"
                + " lists host:port pairs this host can reach; if a server answered but its brokers did not, fix"
                + " the brokers' advertised.listeners");

        private final String summary;
        private final String fix;

        Reason(String summary, String fix) {
            this.summary = summary;
            this.fix = fix;
        }
    }

    private final Reason reason;
    private final List<String> servers;
    private final Map<String, String> securitySettings;
    private final List<String> observations;
    private final Duration timeout;

    /**
     * Creates the exception; the message is composed from the facts given.
     *
     * @param reason why the client could not talk to the cluster, never null
     * @param servers the bootstrap servers tried, as configured, never null
     * @param securitySettings the secret-free security settings in use, by setting name, never null
     * @param observations what the check saw, one entry per server or answer, never null
     * @param timeout how long the check waited for an answer, never null
     * @param cause the client's own failure, may be null
     */
    public ClusterConnectionException(Reason reason, List<String> servers, Map<String, String> securitySettings,
            List<String> observations, Duration timeout, Throwable cause) {
        super(message(reason, servers, securitySettings, observations, timeout), cause);
        this.reason = reason;
        this.servers = List.copyOf(servers);
        this.securitySettings = Collections.unmodifiableMap(new LinkedHashMap<>(securitySettings));
        this.observations = List.copyOf(observations);
        this.timeout = timeout;
    }

    private static String message(Reason reason, List<String> servers, Map<String, String> security,
            List<String> observations, Duration timeout) {
        Objects.requireNonNull(reason, "reason");
        String settings = security.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
        return "Cannot connect to the Kafka cluster: " + reason.summary + "; servers=" + servers
                + (settings.isEmpty() ? "" : ", " + settings) + ", timeout=" + timeout.toMillis() + "ms"
                + (observations.isEmpty() ? "" : "; " + String.join("; ", observations)) + "; " + reason.fix;
    }

    /**
     * Why the client could not talk to the cluster.
     *
     * @return the reason, never null
     */
    public Reason reason() {
        return reason;
    }

    /**
     * The bootstrap servers the check tried, as configured.
     *
     * @return an unmodifiable list of {@code host:port}, never null
     */
    public List<String> servers() {
        return servers;
    }

    /**
     * The security settings in use, without secrets: {@code security.protocol}, and where they
     * apply {@code sasl.mechanism}, the SASL user name, whether {@code sasl.jaas.config} is set,
     * and the trust and key store locations.
     *
     * @return an unmodifiable map in a stable order, never null
     */
    public Map<String, String> securitySettings() {
        return securitySettings;
    }

    /**
     * What the check saw: per server whether a TCP connection was accepted, refused or timed out,
     * how the client's connections ended, and what a broker answered.
     *
     * @return an unmodifiable list, never null
     */
    public List<String> observations() {
        return observations;
    }

    /**
     * How long the check waited for the cluster to answer.
     *
     * @return the timeout, never null
     */
    public Duration timeout() {
        return timeout;
    }
}
