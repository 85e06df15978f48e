package io.github.tobyjamesclements.parsley.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Uuid;

/**
 * A KRaft cluster of combined controller and broker nodes, each in a JVM of its own started as
 * {@code java -cp <classpath> kafka.Kafka server.properties} from the Maven artifact
 * {@code org.apache.kafka:kafka_2.13}: replication factor 3, {@code min.insync.replicas=2},
 * transactions V2 (the 4.x default), a client listener apart from the inter-broker listener, one
 * offsets and one transaction-state partition so that every application shares its coordinators.
 * Brokers can be killed, stopped, paused and restarted; {@link #close()} (and a shutdown hook)
 * kills whatever still runs. Logs and data stay under the work directory for diagnosis.
 *
 * <p>Not thread-safe: one caller drives the faults.
 */
public final class BrokerCluster implements AutoCloseable {

    private final List<BrokerNode> nodes = new ArrayList<>();
    private final BrokerNetwork network;
    private final String classpath;
    private final Thread killer = new Thread(this::killAll, "broker-cluster-killer");

    private BrokerCluster(Path work, String classpath, BrokerNetwork network) {
        this.network = network;
        this.classpath = classpath;
        List<int[]> ports = network.ports();
        for (int id = 1; id <= network.size(); id++) {
            nodes.add(new BrokerNode(id, network.clientHosts().get(id - 1), ports.get(id - 1),
                    work.resolve("broker-" + id)));
        }
        Runtime.getRuntime().addShutdownHook(killer);
    }

    /**
     * Formats and starts every broker and waits until each logged that it started.
     *
     * @param work directory for the brokers' data, configuration and logs; created if missing
     * @param classpath a classpath holding {@code kafka_2.13}, its dependencies and an SLF4J binding
     * @param network where the brokers listen
     * @param timeout how long the brokers may take to start
     * @return the running cluster; never null
     * @throws IllegalStateException if a broker cannot be formatted or does not start in time
     * @throws InterruptedException if interrupted while waiting
     */
    public static BrokerCluster start(Path work, String classpath, BrokerNetwork network, Duration timeout)
            throws InterruptedException {
        BrokerCluster cluster = new BrokerCluster(work, classpath, network);
        try {
            cluster.format();
            for (BrokerNode n : cluster.nodes) {
                n.launch(network.launchPrefix(), classpath);
            }
            for (BrokerNode n : cluster.nodes) {
                cluster.awaitStarted(n.id(), timeout);
            }
            return cluster;
        } catch (RuntimeException | InterruptedException e) {
            cluster.close();
            throw e;
        }
    }

    private void format() throws InterruptedException {
        String voters = nodes.stream().map(BrokerNode::voter).collect(Collectors.joining(","));
        String clusterId = Uuid.randomUuid().toString();
        List<Process> formats = new ArrayList<>();
        for (BrokerNode n : nodes) {
            n.writeProperties(voters);
            try {
                formats.add(new ProcessBuilder(n.formatCommand(network.launchPrefix(), classpath, clusterId))
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(n.log().toFile()))
                        .start());
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot format broker " + n.id(), e);
            }
        }
        for (int i = 0; i < formats.size(); i++) {
            if (!formats.get(i).waitFor(120, TimeUnit.SECONDS) || formats.get(i).exitValue() != 0) {
                formats.get(i).destroyForcibly();
                throw new IllegalStateException("Formatting broker " + (i + 1) + " failed; see " + nodes.get(i).log());
            }
        }
    }

    /** The client bootstrap list, every broker's client listener. */
    public String bootstrap() {
        return nodes.stream().map(BrokerNode::clientAddress).collect(Collectors.joining(","));
    }

    /** The number of brokers. */
    public int size() {
        return nodes.size();
    }

    /** The address broker {@code id} serves clients on (what a client cut-off blocks). */
    public String clientHost(int id) {
        return node(id).clientHost();
    }

    /** SIGKILL of broker {@code id}'s JVM. */
    public void kill(int id) throws InterruptedException {
        node(id).kill();
    }

    /** A controlled shutdown (SIGTERM) of broker {@code id}, SIGKILL after {@code timeout}. */
    public void stop(int id, Duration timeout) throws InterruptedException {
        node(id).stop(timeout.toSeconds());
    }

    /** SIGSTOP of broker {@code id}: the JVM stays, answers nothing, keeps its sockets. */
    public void pause(int id) throws InterruptedException, IOException {
        node(id).signal("STOP");
    }

    /** SIGCONT of broker {@code id}. */
    public void resume(int id) throws InterruptedException, IOException {
        node(id).signal("CONT");
    }

    /** Starts broker {@code id} again (it must be down) and waits until it logged that it started. */
    public void restart(int id, Duration timeout) throws InterruptedException {
        node(id).launch(network.launchPrefix(), classpath);
        awaitStarted(id, timeout);
    }

    private void awaitStarted(int id, Duration timeout) throws InterruptedException {
        BrokerNode n = node(id);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!n.started()) {
            if (!n.alive()) {
                throw new IllegalStateException("Broker " + id + " exited while starting; see " + n.log());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Broker " + id + " did not start within " + timeout + "; see "
                        + n.log());
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

    /**
     * Waits until every replica of every topic is in sync again (after a restart), so the next
     * fault does not take away a partition's last in-sync replicas.
     *
     * @throws IllegalStateException if some partition is still under-replicated at the timeout
     */
    public void awaitInSync(Admin admin, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String lagging = "unknown";
        while (System.nanoTime() < deadline) {
            try {
                lagging = underReplicated(admin);
                if (lagging.isEmpty()) {
                    return;
                }
            } catch (ExecutionException | TimeoutException e) {
                lagging = e.toString();
            }
            TimeUnit.MILLISECONDS.sleep(500);
        }
        throw new IllegalStateException("Replicas still out of sync after " + timeout + ": " + lagging);
    }

    private static String underReplicated(Admin admin)
            throws ExecutionException, InterruptedException, TimeoutException {
        Set<String> names = admin.listTopics(new ListTopicsOptions().listInternal(true)).names()
                .get(10, TimeUnit.SECONDS);
        Map<String, TopicDescription> topics = admin.describeTopics(names).allTopicNames().get(10, TimeUnit.SECONDS);
        return topics.values().stream().flatMap(t -> t.partitions().stream()
                        .filter(p -> p.isr().size() < p.replicas().size())
                        .map(p -> t.name() + "-" + p.partition()))
                .sorted().collect(Collectors.joining(","));
    }

    /** An admin client of this cluster (the caller closes it). */
    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
    }

    private BrokerNode node(int id) {
        if (id < 1 || id > nodes.size()) {
            throw new IllegalArgumentException("No broker " + id + "; brokers are 1.." + nodes.size());
        }
        return nodes.get(id - 1);
    }

    private void killAll() {
        for (BrokerNode n : nodes) {
            try {
                n.kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Kills every broker JVM still running. */
    @Override
    public void close() {
        killAll();
        try {
            Runtime.getRuntime().removeShutdownHook(killer);
        } catch (IllegalStateException e) {
            // Already shutting down: the hook is running or has run.
        }
    }
}
