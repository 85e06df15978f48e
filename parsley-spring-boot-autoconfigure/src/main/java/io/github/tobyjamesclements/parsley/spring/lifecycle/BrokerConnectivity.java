package io.github.tobyjamesclements.parsley.spring.lifecycle;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Whether this instance reaches the Kafka cluster, for the {@code parsley} health contributor and
 * readiness ({@code parsley.health.broker-timeout}). One daemon thread asks the cluster to
 * describe itself ({@code Admin.describeCluster}, one small metadata request) every third of the
 * timeout (and at least every 10 s), each call bounded by that period. The cluster counts as
 * <em>lost</em> once no call has been answered for longer than the timeout; the first answer ends
 * the loss.
 *
 * <p>Why this signal and not what the Streams client already shows: during an outage the client
 * stays {@code RUNNING}; a commit or transaction fails only after {@code max.block.ms} (60 s) and
 * never in an idle application, which has nothing to commit; a client's {@code connection-count}
 * counts a connection still being attempted, so it stays up through a network partition; and a
 * consumer's heartbeat age follows its group membership, which rebalances interrupt, rather than
 * the cluster. The cluster answers a
 * {@code describeCluster} whether or not records flow, so an idle application stays UP; the call
 * fails in every kind of outage (refused, partitioned, paused broker) with an error to show; and
 * it succeeds again as soon as one broker answers, so the report ends by itself. One slow or
 * failed call changes nothing, only the lack of any answer for the whole timeout does, so a slow
 * request does not flap the health. A cluster that lost some brokers but still answers is not
 * lost: Kafka Streams rides that out by itself.
 *
 * <p>Refuses a negative timeout; zero turns the check off: no thread, no client, never lost.
 * {@link Listener}s hear each change on the probe thread. Thread-safe.
 */
public final class BrokerConnectivity implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(BrokerConnectivity.class);

    private static final Duration LONGEST_PERIOD = Duration.ofSeconds(10);
    private static final Duration SHORTEST_PERIOD = Duration.ofMillis(100);
    /** The pause after a failed call: a refusal that comes back at once must not spin the thread. */
    private static final Duration RETRY_PAUSE = Duration.ofMillis(500);

    /** Hears the cluster lost and reached again. */
    @FunctionalInterface
    public interface Listener {

        /**
         * Called on the probe thread when the cluster is lost or reached again; must not block.
         *
         * @param lost whether the cluster is now lost
         */
        void onBrokerConnectivity(boolean lost);
    }

    /**
     * What the last calls found, at one instant.
     *
     * @param lost whether no call has been answered for longer than the timeout
     * @param unansweredFor time since the last answer; zero while the latest call was answered
     * @param lastError the latest call's error, or null when it was answered
     * @param timeout {@code parsley.health.broker-timeout}
     */
    public record Report(boolean lost, Duration unansweredFor, @Nullable String lastError, Duration timeout) {
    }

    /** One call to the cluster; throws what the cluster or the wait answered. */
    interface Probe extends AutoCloseable {

        void call(Duration timeout) throws Exception;

        @Override
        void close();
    }

    private final String applicationId;
    private final Duration timeout;
    private final Duration period;
    private final Probe probe;
    private final LongSupplier nanos;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();

    private volatile long lastAnswer;
    private volatile @Nullable String lastError;
    private volatile boolean lost;
    private volatile @Nullable ScheduledExecutorService executor;

    BrokerConnectivity(String applicationId, Duration timeout, Probe probe, LongSupplier nanos) {
        this.applicationId = Objects.requireNonNull(applicationId, "'applicationId' must not be null");
        this.timeout = Objects.requireNonNull(timeout, "'timeout' must not be null");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("The broker timeout must not be negative; parsley.health.broker-timeout="
                    + timeout + ": set a positive duration, or zero to turn the check off");
        }
        this.probe = probe;
        this.nanos = nanos;
        Duration third = timeout.dividedBy(3);
        this.period = third.compareTo(LONGEST_PERIOD) > 0 ? LONGEST_PERIOD
                : third.compareTo(SHORTEST_PERIOD) < 0 ? SHORTEST_PERIOD : third;
        this.lastAnswer = nanos.getAsLong();
    }

    /**
     * Creates the check over an admin client of {@code adminConfig}, created when the check starts
     * and closed when it stops.
     *
     * @param applicationId the application id, for the log
     * @param adminConfig admin client settings: bootstrap servers and security, as the application's
     * @param timeout how long the cluster may go unanswered before it counts as lost; zero for no check
     * @return the check, not started
     * @throws IllegalArgumentException if the timeout is negative
     */
    public static BrokerConnectivity of(String applicationId, Map<String, Object> adminConfig, Duration timeout) {
        return new BrokerConnectivity(applicationId, timeout, new AdminProbe(Map.copyOf(adminConfig)), System::nanoTime);
    }

    /**
     * Adds a listener of changes.
     *
     * @param listener the listener, never null
     */
    public void addListener(Listener listener) {
        listeners.add(Objects.requireNonNull(listener, "'listener' must not be null"));
    }

    /**
     * What the calls found so far.
     *
     * @return the report, never null
     */
    public Report report() {
        String error = lastError;
        Duration silent = error == null ? Duration.ZERO : Duration.ofNanos(nanos.getAsLong() - lastAnswer);
        return new Report(lost, silent, error, timeout);
    }

    /** One call, and what follows from it; on the probe thread, or the test's. */
    boolean probeOnce() {
        try {
            probe.call(period);
            lastAnswer = nanos.getAsLong();
            lastError = null;
        } catch (InterruptedException e) {
            // Stopping: the call was cut short, not refused, so it tells nothing about the cluster.
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            lastError = cause.toString();
        }
        boolean nowLost = lastError != null && nanos.getAsLong() - lastAnswer > timeout.toNanos();
        if (nowLost != lost) {
            lost = nowLost;
            announce(nowLost);
        }
        return lastError == null;
    }

    private void announce(boolean nowLost) {
        if (nowLost) {
            log.warn("Parsley application '{}' has had no answer from the Kafka cluster for more than {} ms"
                    + " (parsley.health.broker-timeout): health DOWN, readiness REFUSING_TRAFFIC until it answers."
                    + " Kafka Streams keeps retrying and loses nothing; do not restart the instance, restore the"
                    + " brokers. Last error: {}", applicationId, timeout.toMillis(), lastError);
        } else {
            log.info("Parsley application '{}' reaches the Kafka cluster again: health and readiness follow the"
                    + " client again", applicationId);
        }
        for (Listener l : listeners) {
            try {
                l.onBrokerConnectivity(nowLost);
            } catch (RuntimeException e) {
                log.warn("Parsley application '{}': a broker connectivity listener failed: {}", applicationId,
                        e.toString(), e);
            }
        }
    }

    private void cycle() {
        boolean answered = probeOnce();
        ScheduledExecutorService running = executor;
        if (running != null && !running.isShutdown()) {
            running.schedule(this::cycle, (answered ? period : RETRY_PAUSE).toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public synchronized void start() {
        if (executor != null || timeout.isZero()) {
            return;
        }
        lastAnswer = nanos.getAsLong();
        ScheduledExecutorService started = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "parsley-broker-check-" + applicationId);
            t.setDaemon(true);
            return t;
        });
        executor = started;
        started.execute(this::cycle);
    }

    @Override
    public synchronized void stop() {
        ScheduledExecutorService running = executor;
        if (running != null) {
            running.shutdownNow();
            executor = null;
            probe.close();
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }

    @Override
    public int getPhase() {
        return ParsleyLifecycle.PHASE;
    }

    /** The production probe: an admin client, created at the first call so that a check never started opens none. */
    private static final class AdminProbe implements Probe {

        private final Map<String, Object> config;
        private @Nullable Admin admin;

        AdminProbe(Map<String, Object> config) {
            this.config = config;
        }

        @Override
        public synchronized void call(Duration timeout) throws Exception {
            if (admin == null) {
                admin = Admin.create(config);
            }
            int millis = (int) timeout.toMillis();
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(millis)).clusterId()
                    .get(millis + RETRY_PAUSE.toMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public synchronized void close() {
            if (admin != null) {
                admin.close(Duration.ZERO);
                admin = null;
            }
        }
    }
}
