package io.github.tobyjamesclements.parsley.samples.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.tobyjamesclements.parsley.CausalStreams;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two instances of the sample, one application id, on the in-process broker of the first: the
 * first generates the traffic, and its balance checker reads every payment's balance from either
 * instance at random. The second joins while reads run, so reads meet a rebalance (503s, counted
 * apart) and then forwarding between the instances; none may be stale. Each instance advertises
 * 127.0.0.1 and its own fixed port as application.server.
 */
class OrdersTwoInstancesIT {

    private static final Duration LIMIT = Duration.ofSeconds(90);

    @TempDir
    Path stateDir;

    @Test
    void balancesReadThroughEitherInstanceAreNeverStale() {
        int first = freePort();
        int second = freePort();
        String instances = "http://127.0.0.1:" + first + ",http://127.0.0.1:" + second;
        try (ConfigurableApplicationContext a = new SpringApplicationBuilder(OrdersApplication.class, DevKafka.class)
                .run(args(first, "a", "--orders.checker.instances=" + instances))) {
            String brokers = String.join(",", a.getBean(KafkaConnectionDetails.class).getBootstrapServers());
            BalanceChecker checker = a.getBean(BalanceChecker.class);
            await().atMost(LIMIT).until(() -> checker.reads() > 50);
            try (ConfigurableApplicationContext b = new SpringApplicationBuilder(OrdersApplication.class)
                    .run(args(second, "b", "--spring.kafka.bootstrap-servers=" + brokers,
                            "--orders.generator.enabled=false"))) {
                List<CausalStreams> both = List.of(a.getBean(CausalStreams.class), b.getBean(CausalStreams.class));
                await().atMost(LIMIT).until(() -> both.stream().allMatch(s -> s.state() == KafkaStreams.State.RUNNING
                        && !s.metadataForLocalThreads().iterator().next().activeTasks().isEmpty()));
                long before = checker.reads();
                await().atMost(LIMIT).until(() -> checker.forwarded() > 20 && checker.reads() > before + 300);
                assertThat(checker.stale()).isZero();
            }
        }
    }

    /** Command-line arguments, which outrank the sample's application.yml (server.port 8080). */
    private String[] args(int port, String name, String... more) {
        List<String> args = new ArrayList<>(List.of("--server.port=" + port, "--server.address=127.0.0.1",
                "--spring.kafka.streams.state-dir=" + stateDir.resolve(name), "--orders.checker.report-interval=2s"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    /**
     * A free port below the kernel's ephemeral range (32768 and up on Linux), where the broker's
     * listeners and every client connection take theirs, so none of them takes it before the web
     * server binds it.
     */
    static int freePort() {
        Random random = new Random();
        for (int i = 0; i < 100; i++) {
            int port = 15_000 + random.nextInt(15_000);
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException e) {
                // taken: try another
            }
        }
        throw new IllegalStateException("No free port found between 15000 and 30000");
    }
}
