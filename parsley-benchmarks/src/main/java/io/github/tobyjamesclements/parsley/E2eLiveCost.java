package io.github.tobyjamesclements.parsley;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * What the live phase of a single-source run cost the machine per record, by process: the stream
 * threads alone, this JVM as a whole (the application and its clients, the harness's producer and
 * reader, the collector and the compiler) and the broker's JVM, which share the cores (as in the
 * pre-loaded phase: {@link E2ePreloadCost}); with the producer's own rate and commit time
 * ({@link #commitNanos}) these say what set the live rate (docs/design-record/performance-results.md,
 * "Results: throughput and latency"). A figure that cannot be read is NaN: the broker's needs its process
 * id ({@code --broker-pid}, which e2e.sh passes) and a platform whose
 * {@link ProcessHandle.Info#totalCpuDuration()} is known.
 *
 * @param producedRate the live producer's own rate: its records over the time until its last
 *     transaction committed, in records per second
 * @param commitMs the live producer's mean time in {@code commitTransaction} per transaction, in
 *     milliseconds (NaN where the client does not report it)
 * @param streamUs the stream threads' CPU per record, in microseconds
 * @param harnessUs this JVM's CPU per record, every thread and the JVM's own, in microseconds
 * @param brokerUs the broker process's CPU per record, in microseconds
 * @param fetchesPerK the application's fetch requests (its consumers') per 1,000 records: the
 *     broker answers each, so fewer records per fetch cost it more per record
 * @param pollsPerK the stream threads' polls per 1,000 records: work done once per poll (Kafka
 *     Streams' own, and Parsley's position capture) weighs more per record when polls return fewer
 * @param producerRequestsPerK the application's producer requests (produce and transaction
 *     requests) per 1,000 records
 */
record E2eLiveCost(double producedRate, double commitMs, double streamUs, double harnessUs, double brokerUs,
        double fetchesPerK, double pollsPerK, double producerRequestsPerK) {

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** A run without a live phase: NaNs, a dash in a ratio table. */
    private static final E2eLiveCost NONE = new E2eLiveCost(Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN, Double.NaN, Double.NaN, Double.NaN);

    /** The harness JVM and the broker together: what the phase cost the machine per record. */
    double machineUs() {
        return harnessUs + brokerUs;
    }

    /**
     * Readings taken when a phase starts: {@link #produced} when its producer's last transaction
     * committed, then {@link #stop} when its last output was read.
     */
    static final class Meter {
        private final String threads;
        private final long brokerPid;
        private final Producer<?, ?> producer;
        private final Supplier<? extends Map<MetricName, ? extends Metric>> appMetrics;
        private final double fetches;
        private final double polls;
        private final double producerRequests;
        private final ThreadCpu.Snapshot stream;
        private final long harnessNanos;
        private final long brokerNanos;
        private final double commitNanos;
        private final long startNanos = System.nanoTime();
        private long producedNanos = -1;
        private double committedNanos = Double.NaN;

        private Meter(String threads, long brokerPid, Producer<?, ?> producer,
                Supplier<? extends Map<MetricName, ? extends Metric>> appMetrics) {
            this.threads = threads;
            this.brokerPid = brokerPid;
            this.producer = producer;
            this.appMetrics = appMetrics;
            Map<MetricName, ? extends Metric> m = appMetrics.get();
            this.fetches = total(m, "consumer-fetch-manager-metrics", "fetch-total");
            this.polls = total(m, "stream-thread-metrics", "poll-total");
            this.producerRequests = total(m, "producer-metrics", "request-total");
            this.stream = ThreadCpu.snapshot(threads);
            this.harnessNanos = harnessCpuNanos();
            this.brokerNanos = brokerCpuNanos(brokerPid);
            this.commitNanos = commitNanos(producer);
        }

        /** Marks the producer's last commit: its own rate and commit time end here. */
        void produced() {
            producedNanos = System.nanoTime();
            committedNanos = commitNanos(producer) - commitNanos;
        }

        /**
         * The cost per record of {@code records}, sent in {@code transactions}, since this meter
         * started; {@link #produced} must have been called.
         */
        E2eLiveCost stop(int records, int transactions) {
            if (producedNanos < 0) {
                throw new IllegalStateException("Meter stopped before its producer's last commit was marked");
            }
            ThreadCpu.Snapshot now = ThreadCpu.snapshot(threads);
            double streamUs = ThreadCpu.delta(stream.cpu(), now.cpu(), ThreadCpu.STREAM_THREAD) / 1e3 / records;
            double harnessUs = (harnessCpuNanos() - harnessNanos) / 1e3 / records;
            double brokerUs = brokerUsSince(brokerNanos, brokerPid, records);
            Map<MetricName, ? extends Metric> m = appMetrics.get();
            return new E2eLiveCost(records / ((producedNanos - startNanos) / 1e9), committedNanos / 1e6 / transactions,
                    streamUs, harnessUs, brokerUs,
                    perThousand(m, "consumer-fetch-manager-metrics", "fetch-total", fetches, records),
                    perThousand(m, "stream-thread-metrics", "poll-total", polls, records),
                    perThousand(m, "producer-metrics", "request-total", producerRequests, records));
        }
    }

    /**
     * The time {@code producer} spent in {@code commitTransaction} so far, in nanoseconds (the
     * client's {@code txn-commit-time-ns-total}), or NaN where the client does not report it.
     */
    static double commitNanos(Producer<?, ?> producer) {
        return producer.metrics().entrySet().stream()
                .filter(e -> e.getKey().group().equals("producer-metrics")
                        && e.getKey().name().equals("txn-commit-time-ns-total"))
                .findFirst().map(e -> ((Number) e.getValue().metricValue()).doubleValue()).orElse(Double.NaN);
    }

    /** How much a cumulative metric rose since it read {@code before}, per 1,000 of {@code records}. */
    private static double perThousand(Map<MetricName, ? extends Metric> metrics, String group, String name,
            double before, int records) {
        return (total(metrics, group, name) - before) * 1e3 / records;
    }

    /**
     * The sum of a cumulative client metric over every client in {@code metrics} (a Kafka Streams
     * application's: its consumers, or its producers), NaN when none reports it.
     */
    static double total(Map<MetricName, ? extends Metric> metrics, String group, String name) {
        double sum = Double.NaN;
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            if (e.getKey().group().equals(group) && e.getKey().name().equals(name)
                    && e.getValue().metricValue() instanceof Number n) {
                sum = Double.isNaN(sum) ? n.doubleValue() : sum + n.doubleValue();
            }
        }
        return sum;
    }

    /**
     * Starts measuring the stream threads whose names contain {@code threads}, this JVM, the broker,
     * {@code producer}'s commits and the requests of the application whose metrics {@code appMetrics}
     * reads.
     */
    static Meter start(String threads, long brokerPid, Producer<?, ?> producer,
            Supplier<? extends Map<MetricName, ? extends Metric>> appMetrics) {
        return new Meter(threads, brokerPid, producer, appMetrics);
    }

    /** This JVM's CPU time so far, every thread and the JVM's own. */
    static long harnessCpuNanos() {
        return OS.getProcessCpuTime();
    }

    /**
     * The broker's CPU per record of {@code records} since it read {@code sinceNanos}
     * ({@link #brokerCpuNanos}), in microseconds; NaN where either reading is unknown.
     */
    static double brokerUsSince(long sinceNanos, long pid, int records) {
        long now = brokerCpuNanos(pid);
        return now < 0 || sinceNanos < 0 ? Double.NaN : (now - sinceNanos) / 1e3 / records;
    }

    /** The broker process's CPU time so far, or -1 when its id is unknown or the platform does not say. */
    static long brokerCpuNanos(long pid) {
        if (pid <= 0) {
            return -1;
        }
        return ProcessHandle.of(pid).flatMap(h -> h.info().totalCpuDuration()).map(Duration::toNanos).orElse(-1L);
    }

    /** The per-run table of the live phases' cost, for the single-source runs that have one. */
    static void table(StringBuilder s, List<E2eRun> runs) {
        s.append("### Live phase: CPU per record by process\n\n");
        s.append("The live phase's producer, the application and the broker share the machine's cores; what each"
                + " spends per record and the producer's own pace say what set the live rate. Harness JVM: every"
                + " thread of the JVM that runs the application (its stream thread and clients, the harness's"
                + " producer and output reader, the collector and the compiler); the machine is that JVM plus the"
                + " broker's. Produced: the live producer's own rate, its records over the time until its last"
                + " transaction committed; where it is close to the live rate, the application kept up and the"
                + " producer set the pace. Commit: the producer's mean time in commitTransaction per transaction"
                + " (the broker's round trips to complete it). Fetches and producer requests: the application's"
                + " clients' requests per 1,000 records, which the broker answers one by one. Polls: the stream"
                + " threads' per 1,000 records; what a thread does once per poll weighs more per record the fewer"
                + " records each poll returns. Machine cores: its CPU per record times the live rate, the CPU per"
                + " second it used.\n\n");
        s.append("| Round | Variant | Live rec/s | Produced rec/s | Commit ms/txn | Stream thread us/rec"
                + " | Harness JVM us/rec | Broker us/rec | Machine us/rec | Fetches /1k rec | Polls /1k rec"
                + " | Producer requests /1k rec | Machine cores |\n"
                + "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (E2eRun r : runs) {
            E2eLiveCost c = r.liveCost;
            if (r.error == null && c != null) {
                s.append(String.format(Locale.ROOT,
                        "| %d | %s | %,.0f | %,.0f | %.2f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f |%n",
                        r.round, r.variant.label, r.liveRate, c.producedRate(), c.commitMs(), c.streamUs(),
                        c.harnessUs(), c.brokerUs(), c.machineUs(), c.fetchesPerK(), c.pollsPerK(),
                        c.producerRequestsPerK(),
                        E2ePreloadCost.cores(c.machineUs(), r.liveRate)));
            }
        }
        s.append('\n');
    }

    /** Ratio rows of {@code v}'s live cost over its base's, per round, into a table {@link E2eRatios#head} began. */
    static void ratios(E2eRatios t, String prefix, E2eVariant v) {
        t.row(prefix + "live: the producer's own rate", v, r -> of(r).producedRate());
        t.row(prefix + "live: the producer's commit time per transaction", v, r -> of(r).commitMs());
        t.row(prefix + "live: stream-thread CPU per record", v, r -> of(r).streamUs());
        t.row(prefix + "live: harness JVM CPU per record", v, r -> of(r).harnessUs());
        t.row(prefix + "live: broker CPU per record", v, r -> of(r).brokerUs());
        t.row(prefix + "live: machine CPU per record (harness JVM + broker)", v, r -> of(r).machineUs());
        t.row(prefix + "live: the application's fetches per record", v, r -> of(r).fetchesPerK());
        t.row(prefix + "live: the stream threads' polls per record", v, r -> of(r).pollsPerK());
        t.row(prefix + "live: the application's producer requests per record", v, r -> of(r).producerRequestsPerK());
    }

    /** A run's live cost, or {@link #NONE}. */
    private static E2eLiveCost of(E2eRun r) {
        return r.liveCost != null ? r.liveCost : NONE;
    }
}
