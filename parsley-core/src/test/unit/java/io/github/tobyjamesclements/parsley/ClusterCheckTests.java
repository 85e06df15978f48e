package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.tobyjamesclements.parsley.ClusterConnectionException.Reason;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/**
 * The startup cluster check against addresses where no Kafka broker answers: nothing listening,
 * a host that does not resolve, and a server that accepts connections and never answers. Each
 * failure must say which it is, name the servers, stay within its timeout and log little.
 */
class ClusterCheckTests {

    /** Generous slack over the check's timeout for admin client start-up, close and the TCP probes. */
    private static final Duration SLACK = Duration.ofSeconds(4);

    private static final Parsley APP = Parsley.named("check", Stage.named("relay")
            .on(Topic.of("check-in", Codec.utf8(), Codec.utf8()), m -> List.of()).build());

    @Test
    void nothingListeningFailsAsNoBrokerAnsweringWithinTheDefaultTimeout() throws IOException {
        String server = "localhost:" + freePort();
        Failure f = streams(APP, server);

        assertThat(f.exception.reason()).isEqualTo(Reason.NO_BROKER_ANSWERING);
        assertThat(f.exception.servers()).containsExactly(server);
        assertThat(f.exception.timeout()).isEqualTo(Duration.ofSeconds(15));
        assertThat(f.exception).hasMessageStartingWith("Cannot connect to the Kafka cluster: no broker answering;"
                        + " servers=[" + server + "], security.protocol=PLAINTEXT (default), timeout=15000ms")
                .hasMessageContaining(server + " refused the connection")
                .hasMessageContaining("could not open a connection to any server")
                .hasMessageEndingWith("check that the brokers are running and that bootstrap.servers lists"
                        + " host:port pairs this host can reach; if a server answered but its brokers did not, fix"
                        + " the brokers' advertised.listeners");
        assertThat(f.elapsed).isLessThan(Duration.ofSeconds(15).plus(SLACK));
        assertThat(f.lines).isLessThan(300);
    }

    @Test
    void unknownHostFailsAsNoBrokerAnsweringAtOnce() {
        String server = "no-such-host.invalid:9092";
        Failure f = streams(APP, server);

        assertThat(f.exception.reason()).isEqualTo(Reason.NO_BROKER_ANSWERING);
        assertThat(f.exception.observations()).containsExactly(server + ": unknown host");
        assertThat(f.exception).hasMessageContaining("servers=[" + server + "]");
        assertThat(f.elapsed).isLessThan(SLACK);
    }

    @Test
    void serverThatAcceptsAndNeverAnswersFailsAsSecurityProtocolMismatch() throws IOException {
        List<Socket> accepted = new CopyOnWriteArrayList<>();
        try (ServerSocket silent = new ServerSocket(0)) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept());
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            }, "silent-acceptor");
            acceptor.setDaemon(true);
            acceptor.start();
            String server = "localhost:" + silent.getLocalPort();
            Failure f = streams(APP.withStartupCheckTimeout(Duration.ofSeconds(5)), server);

            assertThat(f.exception.reason()).isEqualTo(Reason.SECURITY_PROTOCOL_MISMATCH);
            assertThat(f.exception).hasMessageStartingWith("Cannot connect to the Kafka cluster: security protocol"
                            + " mismatch; servers=[" + server + "], security.protocol=PLAINTEXT (default)")
                    .hasMessageContaining(server + " accepted a TCP connection")
                    .hasMessageContaining("never got a Kafka answer")
                    .hasMessageEndingWith("or point bootstrap.servers at a listener that matches the current settings");
            assertThat(f.elapsed).isLessThan(Duration.ofSeconds(5).plus(SLACK));
            assertThat(f.lines).isLessThan(300);
        } finally {
            for (Socket s : accepted) {
                s.close();
            }
        }
    }

    @Test
    void zeroTimeoutSkipsTheCheck() throws IOException {
        Properties p = new Properties();
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + freePort());

        APP.withStartupCheckTimeout(Duration.ZERO).checkCluster(p);

        assertThat(APP.startupCheckTimeout()).isEqualTo(Duration.ofSeconds(15));
    }

    @Test
    void negativeTimeoutIsRefused() {
        IllegalArgumentException e = catchThrowableOfType(IllegalArgumentException.class,
                () -> APP.withStartupCheckTimeout(Duration.ofSeconds(-1)));

        assertThat(e).hasMessage("Startup check timeout must not be negative; timeout=PT-1S; use zero to turn the"
                + " check off");
    }

    /** Runs {@code streams} against the server, as an application would, and measures the failure. */
    static Failure streams(Parsley app, String server) {
        Properties p = new Properties();
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, server);
        return run(app, p);
    }

    static Failure run(Parsley app, Properties p) {
        try (CheckLog log = new CheckLog()) {
            long start = System.nanoTime();
            ClusterConnectionException e = catchThrowableOfType(ClusterConnectionException.class, () -> app.streams(p));
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            assertThat(e).as("streams() must fail the cluster check").isNotNull();
            Failure f = new Failure(e, elapsed, log.lines(), log.text());
            System.out.printf("cluster check: reason=%s, failed after %d ms, logged %d events / %d lines: %s%n",
                    e.reason(), elapsed.toMillis(), log.events().size(), f.lines, e.getMessage());
            return f;
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    record Failure(ClusterConnectionException exception, Duration elapsed, long lines, String log) {
    }
}
