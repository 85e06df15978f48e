package io.github.tobyjamesclements.parsley;

import io.github.tobyjamesclements.parsley.ClusterConnectionException.Reason;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.MetadataRecoveryStrategy;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.IllegalSaslStateException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.UnsupportedSaslMechanismException;
import org.apache.kafka.common.utils.Utils;

/**
 * The startup cluster check: one {@code describeCluster} call through an admin client built from
 * the application's full client configuration, bounded by a short timeout, before anything else
 * talks to the cluster. On failure it tells the three causes apart and throws
 * {@link ClusterConnectionException}.
 *
 * <p>An authentication failure comes back from the client at once, typed. A timeout is told
 * apart by what the check's own admin client counted (connections opened, answers received)
 * and a plain TCP connect to each bootstrap address: no connection at all means no broker; a
 * connection that never gets a Kafka answer, or is closed after the first one (what a SASL
 * listener does to a client that does not authenticate), means a security protocol mismatch;
 * more answers than connections means a server answered but the brokers it advertises did not.
 *
 * <p>The admin client does not re-bootstrap (Kafka's default re-bootstrap logs a line per
 * attempt, tens of thousands a minute against a dead address) and is closed without waiting,
 * so a failed check logs a few dozen lines.
 */
final class ClusterCheck {

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);
    private static final String UNKNOWN_HOST = ": unknown host";
    /** Slack on top of the admin call's own timeout, which normally completes the future first. */
    private static final long GRACE_MS = 5_000;

    private ClusterCheck() {
    }

    /**
     * Checks that the cluster answers, within the timeout.
     *
     * @param clientConfig admin client configuration with bootstrap servers and security settings
     * @param timeout positive; how long to wait for an answer
     * @throws ClusterConnectionException if the cluster did not answer or refused the client
     */
    static void run(Map<String, Object> clientConfig, Duration timeout) {
        ClientSecurity security = ClientSecurity.of(clientConfig);
        List<String> servers = servers(clientConfig);
        Admin admin;
        try {
            admin = Admin.create(checkConfig(clientConfig, timeout));
        } catch (KafkaException e) {
            // The client refuses to start when no bootstrap host resolves; anything else is a bad setting.
            List<String> probes = probe(servers);
            if (!probes.isEmpty() && probes.stream().allMatch(p -> p.endsWith(UNKNOWN_HOST))) {
                throw new ClusterConnectionException(Reason.NO_BROKER_ANSWERING, servers, security.summary(), probes,
                        timeout, e);
            }
            throw e;
        }
        Throwable failure;
        Traffic traffic;
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(millis(timeout))).nodes()
                    .get(timeout.toMillis() + GRACE_MS, TimeUnit.MILLISECONDS);
            return;
        } catch (ExecutionException e) {
            failure = e.getCause();
        } catch (TimeoutException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while checking the Kafka cluster; servers=" + servers, e);
        } finally {
            traffic = Traffic.of(admin);
            admin.close(Duration.ZERO);
        }
        throw diagnose(failure, traffic, servers, security, timeout);
    }

    private static ClusterConnectionException diagnose(Throwable failure, Traffic traffic, List<String> servers,
            ClientSecurity security, Duration timeout) {
        List<String> seen = new ArrayList<>();
        Reason reason;
        if (failure instanceof AuthenticationException) {
            reason = mismatch(failure) ? Reason.SECURITY_PROTOCOL_MISMATCH : Reason.AUTHENTICATION_FAILED;
            String said = failure instanceof SslAuthenticationException ? "the TLS handshake failed: "
                    : "the broker answered: ";
            seen.add(said + security.mask(String.valueOf(failure.getMessage())));
        } else if (failure instanceof org.apache.kafka.common.errors.TimeoutException
                || failure instanceof TimeoutException) {
            seen.addAll(probe(servers));
            seen.add(traffic.describe());
            reason = traffic.opened == 0 || traffic.answers > traffic.opened ? Reason.NO_BROKER_ANSWERING
                    : Reason.SECURITY_PROTOCOL_MISMATCH;
        } else {
            throw new IllegalStateException("Cannot check the Kafka cluster; servers=" + servers + ": "
                    + security.mask(String.valueOf(failure)), failure);
        }
        return new ClusterConnectionException(reason, servers, security.summary(), seen, timeout, failure);
    }

    /** Failures that mean the listener expects another protocol or mechanism, not that the credentials are wrong. */
    private static boolean mismatch(Throwable failure) {
        return failure instanceof SslAuthenticationException || failure instanceof IllegalSaslStateException
                || failure instanceof UnsupportedSaslMechanismException;
    }

    private static Map<String, Object> checkConfig(Map<String, Object> clientConfig, Duration timeout) {
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis(timeout));
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis(timeout));
        config.put(CommonClientConfigs.METADATA_RECOVERY_STRATEGY_CONFIG, MetadataRecoveryStrategy.NONE.name);
        return config;
    }

    private static int millis(Duration timeout) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
    }

    static List<String> servers(Map<String, Object> clientConfig) {
        Object value = clientConfig.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        List<String> servers = new ArrayList<>();
        if (value instanceof List<?> list) {
            list.forEach(s -> servers.add(String.valueOf(s).trim()));
        } else if (value != null) {
            for (String s : value.toString().split(",")) {
                servers.add(s.trim());
            }
        }
        servers.removeIf(String::isEmpty);
        return servers;
    }

    /** One plain TCP connect per bootstrap address, to tell refused from accepted from silent. */
    static List<String> probe(List<String> servers) {
        List<String> seen = new ArrayList<>();
        for (String server : servers) {
            String host = Utils.getHost(server);
            Integer port = Utils.getPort(server);
            if (host == null || port == null) {
                seen.add(server + ": not a host:port pair");
                continue;
            }
            InetSocketAddress address = new InetSocketAddress(host, port);
            if (address.isUnresolved()) {
                seen.add(server + UNKNOWN_HOST);
                continue;
            }
            try (Socket socket = new Socket()) {
                socket.connect(address, (int) PROBE_TIMEOUT.toMillis());
                seen.add(server + " accepted a TCP connection");
            } catch (ConnectException e) {
                seen.add(server + " refused the connection");
            } catch (SocketTimeoutException e) {
                seen.add(server + ": no TCP connection within " + PROBE_TIMEOUT.toMillis() + " ms");
            } catch (IOException e) {
                seen.add(server + ": " + e.getMessage());
            }
        }
        return seen;
    }

    /** What the check's admin client counted on the wire (Kafka's selector metrics for all connections). */
    private record Traffic(long opened, long answers) {

        static Traffic of(Admin admin) {
            return new Traffic(total(admin, "connection-creation-total"), total(admin, "response-total"));
        }

        private static long total(Admin admin, String name) {
            return Math.round(admin.metrics().entrySet().stream()
                    .filter(e -> e.getKey().name().equals(name) && !e.getKey().tags().containsKey("node-id"))
                    .mapToDouble(e -> e.getValue().metricValue() instanceof Number n ? n.doubleValue() : 0)
                    .sum());
        }

        String describe() {
            if (opened == 0) {
                return "the client could not open a connection to any server";
            }
            if (answers == 0) {
                return "the client opened " + opened + " connection(s) and never got a Kafka answer (a TLS"
                        + " listener gives none to a plaintext client, a plaintext listener drops a TLS client, and"
                        + " a port that is not Kafka's may say nothing)";
            }
            if (answers <= opened) {
                return "the client opened " + opened + " connection(s); the server answered only the first request"
                        + " on each and closed it, which is what a SASL listener does to a client that does not"
                        + " authenticate";
            }
            return "a server answered " + answers + " Kafka request(s), but the cluster did not answer"
                    + " describeCluster: the brokers it advertises may be unreachable from here (advertised.listeners)";
        }
    }
}
