package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Uuid;
import org.awaitility.Awaitility;

/**
 * One combined KRaft controller and broker in a JVM of its own, started as
 * {@code java -cp <test classpath> kafka.Kafka server.properties} from the {@code kafka_2.13}
 * artifact spring-kafka-test brings, as parsley-faults' {@code BrokerCluster} starts its brokers.
 * Unlike the in-JVM broker, it can be stopped and started again on the same ports with the same
 * log directory, so clients see one broker go away and come back. Settings a single broker needs
 * for {@code exactly_once_v2} (build-facts.md §2). Output goes to {@code broker.log} in its
 * directory; {@link #close()} kills whatever still runs.
 */
final class StandaloneBroker implements AutoCloseable {

    private static final String STARTED = "Kafka Server started";

    private final Path dir;
    private final int clientPort;
    private final String classpath;
    private Process process;
    private long logMark;

    private StandaloneBroker(Path dir, int clientPort, String classpath) {
        this.dir = dir;
        this.clientPort = clientPort;
        this.classpath = classpath;
    }

    /** Formats a new broker in {@code dir} on free ports and starts it. */
    static StandaloneBroker start(Path dir, Duration timeout) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        int client = freePort();
        int controller = freePort();
        // Failsafe runs the tests from a manifest-only jar; the real classpath is in this property.
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        StandaloneBroker broker = new StandaloneBroker(dir, client, classpath);
        broker.configure(controller);
        broker.format();
        broker.launch(timeout);
        return broker;
    }

    String bootstrap() {
        return "127.0.0.1:" + clientPort;
    }

    /** A controlled shutdown (SIGTERM), SIGKILL if it takes longer than 30 s. */
    void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Starts the broker again on the same ports and log directory, once it logged that it started. */
    void restart(Duration timeout) throws IOException {
        launch(timeout);
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private void configure(int controller) throws IOException {
        List<String> lines = List.of(
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controller,
                "listeners=PLAINTEXT://127.0.0.1:" + clientPort + ",CONTROLLER://127.0.0.1:" + controller,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + clientPort,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + dir.resolve("data"),
                "num.partitions=1",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=4",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "transaction.state.log.num.partitions=4",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0");
        Files.writeString(dir.resolve("server.properties"), String.join("\n", lines) + "\n");
        // The test classpath's logback-test.xml quiets Kafka; readiness is read from one INFO line.
        Files.writeString(dir.resolve("logback.xml"), """
                <configuration>
                  <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{30} - %msg%n</pattern></encoder>
                  </appender>
                  <logger name="kafka.server.KafkaRaftServer" level="INFO"/>
                  <root level="WARN"><appender-ref ref="OUT"/></root>
                </configuration>
                """);
    }

    private void format() throws IOException, InterruptedException {
        Process format = new ProcessBuilder(command("kafka.tools.StorageTool", "format", "-t",
                Uuid.randomUuid().toString(), "-c", dir.resolve("server.properties").toString()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile())).start();
        if (!format.waitFor(120, TimeUnit.SECONDS) || format.exitValue() != 0) {
            format.destroyForcibly();
            throw new IllegalStateException("Formatting the broker failed; see " + log());
        }
    }

    private void launch(Duration timeout) throws IOException {
        logMark = Files.exists(log()) ? Files.size(log()) : 0;
        process = new ProcessBuilder(command("kafka.Kafka", dir.resolve("server.properties").toString()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile())).start();
        Awaitility.await("broker started; see " + log()).atMost(timeout).pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    if (!process.isAlive()) {
                        throw new IllegalStateException("The broker exited while starting; see " + log());
                    }
                    return started();
                });
    }

    private boolean started() throws IOException {
        byte[] all = Files.readAllBytes(log());
        return new String(all, (int) logMark, all.length - (int) logMark, StandardCharsets.UTF_8).contains(STARTED);
    }

    private List<String> command(String main, String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms256m", "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dlogback.configurationFile=" + dir.resolve("logback.xml"), "-cp", classpath, main));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private Path log() {
        return dir.resolve("broker.log");
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
