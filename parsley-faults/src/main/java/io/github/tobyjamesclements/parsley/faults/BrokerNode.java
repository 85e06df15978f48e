package io.github.tobyjamesclements.parsley.faults;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One broker of a {@link BrokerCluster}: its directory, its {@code server.properties} (combined
 * controller and broker, a client listener apart from the inter-broker one) and the JVM currently
 * running it. Every incarnation appends to the same {@code broker.log}; readiness is read from the
 * part of the log the current incarnation wrote.
 */
final class BrokerNode {

    private static final String STARTED = "Kafka Server started";

    private final int id;
    private final String clientHost;
    private final int[] ports;
    private final Path dir;
    private Process process;
    private long logMark;

    BrokerNode(int id, String clientHost, int[] ports, Path dir) {
        this.id = id;
        this.clientHost = clientHost;
        this.ports = ports.clone();
        this.dir = dir;
    }

    int id() {
        return id;
    }

    String clientHost() {
        return clientHost;
    }

    String clientAddress() {
        return clientHost + ":" + ports[0];
    }

    String voter() {
        return id + "@127.0.0.1:" + ports[2];
    }

    Path log() {
        return dir.resolve("broker.log");
    }

    Path properties() {
        return dir.resolve("server.properties");
    }

    /** Writes {@code server.properties} for a cluster whose voters are {@code voters}. */
    void writeProperties(String voters) {
        List<String> lines = List.of(
                "process.roles=broker,controller",
                "node.id=" + id,
                "controller.quorum.voters=" + voters,
                "listeners=CLIENT://" + clientAddress() + ",INTERNAL://127.0.0.1:" + ports[1]
                        + ",CONTROLLER://127.0.0.1:" + ports[2],
                "advertised.listeners=CLIENT://" + clientAddress() + ",INTERNAL://127.0.0.1:" + ports[1],
                "listener.security.protocol.map=CLIENT:PLAINTEXT,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "inter.broker.listener.name=INTERNAL",
                "controller.listener.names=CONTROLLER",
                "log.dirs=" + dir.resolve("data"),
                "num.partitions=3",
                "default.replication.factor=3",
                "min.insync.replicas=2",
                "offsets.topic.replication.factor=3",
                // One partition each: every application in the run shares one group coordinator
                // and one transaction coordinator, so Parsley and the plain control meet the same
                // faults.
                "offsets.topic.num.partitions=1",
                "transaction.state.log.replication.factor=3",
                "transaction.state.log.min.isr=2",
                "transaction.state.log.num.partitions=1",
                "share.coordinator.state.topic.replication.factor=3",
                "share.coordinator.state.topic.min.isr=2",
                "group.initial.rebalance.delay.ms=0",
                "auto.create.topics.enable=false",
                "unclean.leader.election.enable=false");
        write(properties(), String.join("\n", lines) + "\n");
    }

    /** The command that formats this broker's storage with {@code clusterId}. */
    List<String> formatCommand(List<String> prefix, String classpath, String clusterId) {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(List.of(javaBinary(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", classpath,
                "kafka.tools.StorageTool", "format", "-t", clusterId, "-c", properties().toString()));
        return cmd;
    }

    /** Starts a new incarnation of the broker JVM; its output goes to {@link #log()}. */
    void launch(List<String> prefix, String classpath) {
        if (alive()) {
            throw new IllegalStateException("Broker " + id + " is already running, pid=" + process.pid());
        }
        try {
            logMark = Files.exists(log()) ? Files.size(log()) : 0;
            List<String> cmd = new ArrayList<>(prefix);
            // Levels on the command line beat a simplelogger.properties on the classpath (the test
            // JVM's quiets its own clients); readiness is read from an INFO line.
            cmd.addAll(List.of(javaBinary(), "-Xms384m", "-Xmx384m", "-XX:+UseSerialGC",
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
                    "-Dorg.slf4j.simpleLogger.showDateTime=true",
                    "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
                    "-Dorg.slf4j.simpleLogger.log.kafka.log=warn",
                    "-Dorg.slf4j.simpleLogger.log.org.apache.kafka.storage=warn",
                    "-Dorg.slf4j.simpleLogger.log.state.change.logger=warn",
                    "-cp", classpath, "kafka.Kafka", properties().toString()));
            process = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start broker " + id, e);
        }
    }

    /** Whether the current incarnation logged that it started. */
    boolean started() {
        try (RandomAccessFile f = new RandomAccessFile(log().toFile(), "r")) {
            long length = f.length() - logMark;
            if (length <= 0) {
                return false;
            }
            byte[] mine = new byte[(int) Math.min(length, 16 << 20)];
            f.seek(logMark);
            f.readFully(mine);
            return new String(mine, StandardCharsets.UTF_8).contains(STARTED);
        } catch (IOException e) {
            return false;
        }
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    long pid() {
        if (!alive()) {
            throw new IllegalStateException("Broker " + id + " is not running");
        }
        return process.pid();
    }

    /** SIGKILL, and waits for the JVM to be gone. */
    void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** SIGTERM (a controlled shutdown), then SIGKILL if it has not exited within {@code seconds}. */
    void stop(long seconds) throws InterruptedException {
        if (alive()) {
            process.destroy();
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }

    /** Sends a signal by name ({@code STOP}, {@code CONT}) to the broker JVM. */
    void signal(String name) throws InterruptedException, IOException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + name + " failed for broker " + id);
        }
    }

    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }
}
