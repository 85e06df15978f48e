package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeCount;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replaces a stream thread that died of a transient error of the cluster ({@link TransientErrors}),
 * within a budget: at most {@link Budget#retries()} replacements in any {@link Budget#window()},
 * each after a back-off that doubles with every replacement already in the window. Any other
 * failure, and a transient one past the budget, goes to the fallback handler, which by default
 * shuts the client down: a cluster that keeps failing is an outage to page someone about, not to
 * hide. Counts replacements in the metric {@value #METRIC} and logs one WARN per replacement.
 * Thread-safe: threads fail concurrently.
 */
final class ThreadReplacements {

    static final String METRIC = MetricNames.THREAD_REPLACEMENTS_TOTAL;
    /** The longest back-off, however many replacements preceded it: a client waits no longer for a thread. */
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(ThreadReplacements.class);

    /**
     * How many replacements, how far apart, over which period.
     *
     * @param retries replacements allowed in any window; zero stops at the first transient error
     * @param backoff the wait before the first replacement of a window, doubled for each later one
     * @param window the period over which replacements count
     */
    record Budget(int retries, Duration backoff, Duration window) {

        static final Budget DEFAULT = new Budget(Parsley.DEFAULT_TRANSIENT_RETRIES, Parsley.DEFAULT_TRANSIENT_BACKOFF,
                Parsley.DEFAULT_TRANSIENT_WINDOW);

        Budget {
            Objects.requireNonNull(backoff, "backoff");
            Objects.requireNonNull(window, "window");
            if (retries < 0 || backoff.isNegative() || window.isZero() || window.isNegative()) {
                throw new IllegalArgumentException("Transient retries must be zero or more, the back-off not negative"
                        + " and the window positive; retries=" + retries + ", backoff=" + backoff + ", window=" + window);
            }
        }

        /** The back-off before a replacement that {@code earlier} replacements of the window preceded. */
        Duration backoffAfter(int earlier) {
            Duration d = backoff;
            for (int i = 0; i < earlier && d.compareTo(MAX_BACKOFF) < 0; i++) {
                d = d.multipliedBy(2);
            }
            return d.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : d;
        }
    }

    private final String applicationId;
    private final Budget budget;
    private final LongSupplier nanos;
    /** When each replacement of the current window was granted, oldest first. */
    private final ArrayDeque<Long> granted = new ArrayDeque<>();
    /** A registry of its own, without reporters or expiry: nothing to close. */
    private final Metrics metrics = new Metrics();
    private final MetricName metric = new MetricName(METRIC, MetricNames.GROUP,
            "Stream threads replaced after a transient cluster error", Map.of());
    private final Sensor replaced;

    /** {@code nanos} is a monotonic clock in nanoseconds ({@code System::nanoTime} in production). */
    ThreadReplacements(String applicationId, Budget budget, LongSupplier nanos) {
        this.applicationId = applicationId;
        this.budget = budget;
        this.nanos = nanos;
        this.replaced = metrics.sensor(METRIC);
        replaced.add(metric, new CumulativeCount());
    }

    /**
     * Counts a replacement for {@code failure} at {@code now} if it is transient and the budget
     * allows one.
     *
     * @return the back-off before the replacement, or empty when the failure must go to the fallback
     */
    synchronized Optional<Duration> admit(Throwable failure, long now) {
        if (!TransientErrors.isTransient(failure)) {
            return Optional.empty();
        }
        long window = budget.window().toNanos();
        while (!granted.isEmpty() && now - granted.peekFirst() >= window) {
            granted.removeFirst();
        }
        if (granted.size() >= budget.retries()) {
            return Optional.empty();
        }
        Duration backoff = budget.backoffAfter(granted.size());
        granted.addLast(now);
        return Optional.of(backoff);
    }

    /** {@code fallback}, preceded by this policy: transient errors within the budget replace the thread. */
    StreamsUncaughtExceptionHandler around(StreamsUncaughtExceptionHandler fallback) {
        return e -> {
            Optional<Duration> backoff = admit(e, nanos.getAsLong());
            if (backoff.isEmpty()) {
                if (TransientErrors.isTransient(e)) {
                    log.error("Transient cluster error, but the stream-thread replacement budget is spent; application={},"
                            + " budget={} in {}: the uncaught-exception handler decides (by default the client shuts"
                            + " down); check the cluster, then restart the application", applicationId,
                            budget.retries(), budget.window());
                }
                return fallback.handle(e);
            }
            replaced.record(1);
            log.warn("Stream thread failed with a transient cluster error and is replaced after {} ms; application={},"
                    + " thread={}, replacements={} in the last {}, budget={}: {}", backoff.get().toMillis(), applicationId,
                    Thread.currentThread().getName(), count(), budget.window(), budget.retries(), describe(e));
            pause(backoff.get());
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        };
    }

    private synchronized int count() {
        return granted.size();
    }

    /** The failure and its root cause: the wrapper says where, the root what. */
    private static String describe(Throwable e) {
        Throwable root = e;
        for (int i = 0; i < 32 && root.getCause() != null && root.getCause() != root; i++) {
            root = root.getCause();
        }
        return root == e ? e.toString() : e + " <- " + root;
    }

    /**
     * The back-off, on the dying thread: its tasks wait for the replacement anyway, and a cluster
     * that is failing over gets time to finish before the new thread asks it for a transaction.
     */
    private static void pause(Duration backoff) {
        if (backoff.isZero()) {
            return;
        }
        try {
            Thread.sleep(backoff.toMillis());
        } catch (InterruptedException interrupted) {
            // The client is closing: replace at once, Kafka Streams adds no thread to a closing client.
            Thread.currentThread().interrupt();
        }
    }

    /** The replacement count, for {@link CausalStreams#metrics()}; not the registry's own metrics. */
    Map<MetricName, Metric> metrics() {
        return Map.of(metric, metrics.metric(metric));
    }

    /**
     * {@code handler} made total. Kafka Streams calls it on the dying stream thread without a guard:
     * whatever escapes it kills the thread without the client deciding its fate, so the client
     * would keep running, or wait, without that thread's tasks. Every {@link Throwable} is caught,
     * not only a {@link RuntimeException}: a handler that fails an assertion or runs out of memory
     * leaves the client in no better state to continue.
     */
    static StreamsUncaughtExceptionHandler totalised(String applicationId, StreamsUncaughtExceptionHandler handler) {
        return e -> {
            StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse r;
            try {
                r = handler.handle(e);
            } catch (Throwable failed) {
                log.error("The uncaught-exception handler failed; application={}, exception={}; the client shuts down"
                        + " (SHUTDOWN_CLIENT), as without a handler: make the handler return a response for every"
                        + " throwable", applicationId, e.toString(), failed);
                return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            }
            if (r == null) {
                log.error("The uncaught-exception handler returned null; application={}, exception={}; the client"
                        + " shuts down (SHUTDOWN_CLIENT), as without a handler: make the handler return a response",
                        applicationId, e.toString());
                return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            }
            return r;
        };
    }
}
