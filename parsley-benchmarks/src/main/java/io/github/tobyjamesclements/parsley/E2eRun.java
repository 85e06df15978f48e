package io.github.tobyjamesclements.parsley;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongSupplier;

/** What one run of one variant in one round measured; a failed run keeps its {@link #error}. */
final class E2eRun {

    /** Latency percentiles in milliseconds. */
    record Lat(double p50, double p99, double max, int n) {
        static Lat of(long[] nanos) {
            if (nanos.length == 0) {
                return new Lat(Double.NaN, Double.NaN, Double.NaN, 0);
            }
            long[] s = nanos.clone();
            Arrays.sort(s);
            return new Lat(pct(s, 0.50) / 1e6, pct(s, 0.99) / 1e6, s[s.length - 1] / 1e6, s.length);
        }

        private static long pct(long[] sorted, double q) {
            int i = (int) Math.ceil(q * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
        }
    }

    /** Hold samples of one phase: the {@code records-held} gauge summed over tasks, and held heads. */
    static final class Holds {
        int samples;
        int samplesWithHeld;
        long heldSum;
        double heldMax;
        int headsMax;
        double ageMaxMs;

        double heldMean() {
            return samples == 0 ? 0 : (double) heldSum / samples;
        }

        void add(Holds o) {
            samples += o.samples;
            samplesWithHeld += o.samplesWithHeld;
            heldSum += o.heldSum;
            heldMax = Math.max(heldMax, o.heldMax);
            headsMax = Math.max(headsMax, o.headsMax);
            ageMaxMs = Math.max(ageMaxMs, o.ageMaxMs);
        }
    }

    final E2eVariant variant;
    final int round;
    double preloadRate;
    double liveRate;
    /** What the live phase cost per record, by process; null for runs without one. */
    E2eLiveCost liveCost;
    /** What the pre-loaded phase cost per record beyond the stream threads, by process; null if not metered. */
    E2ePreloadCost preloadCost;
    Lat live;
    Lat paced;
    double pacedAchieved;
    Lat noSkew;
    Lat skew;
    double noSkewAchieved;
    double skewAchieved;
    Holds holdsNoSkew;
    Holds holdsSkew;
    E2eHeaderSizes headers;
    /** Stream-thread CPU per record over the pre-loaded phase, in microseconds. */
    double streamCpuUs;
    /** Bytes the stream threads allocated per record over the same phase. */
    double allocatedBytes;
    /** CPU of the stream thread's producer network thread per record over the same phase. */
    double senderCpuUs;
    /** Thread-level Kafka Streams metrics at the end of the pre-loaded phase. */
    String threadMetrics = "";
    /** Records (and transaction markers) written to the application's changelogs per input record. */
    double changelogPerRecord;
    /**
     * The output topic's bytes on the broker's disk per output record, over every phase: record
     * batches, each record's framing and headers, and transaction markers; NaN if not read.
     */
    double outputBytesPerRecord = Double.NaN;
    double loadStart;
    double loadEnd;
    long duplicates;
    long missing;
    long violations;
    /** JSON variant: outputs with a negative balance, and customers whose last balance is not 0. */
    long negativeBalances;
    long nonZeroBalances;
    String error;

    E2eRun(E2eVariant variant, int round) {
        this.variant = variant;
        this.round = round;
    }

    /**
     * Measures the pre-loaded phase of {@code app}, whose client ids contain {@code id} and which
     * reached RUNNING at {@code runningAt} (nanoTime): waits for the reader's phase 0, then records
     * the phase's rate, its stream threads' CPU and allocation, and the machine's CPU, per record.
     */
    void measurePreload(E2eApps.App app, String id, E2eOptions o, E2eOutputReader reader, long runningAt,
            int records) throws InterruptedException {
        measurePreload(app, id, o, reader, reader::cpuNanos, runningAt, records);
    }

    /**
     * As {@link #measurePreload(E2eApps.App, String, E2eOptions, E2eOutputReader, long, int)}, where
     * {@code readersCpu} is the CPU time so far of every output reader of the run, not only {@code reader}'s
     * (the last one to finish: a pipeline's last hop).
     */
    void measurePreload(E2eApps.App app, String id, E2eOptions o, E2eOutputReader reader, LongSupplier readersCpu,
            long runningAt, int records) throws InterruptedException {
        ThreadCpu.Snapshot cpu0 = ThreadCpu.snapshot(id);
        E2ePreloadCost.Start machine0 = E2ePreloadCost.start(o.brokerPid, readersCpu);
        E2eWait.phase(reader, 0, o.timeoutSeconds);
        preloadRate = records / ((reader.lastReceipt(0) - runningAt) / 1e9);
        preloadCost = machine0.stop(records);
        recordCpu(cpu0, ThreadCpu.snapshot(id), records, app);
    }

    /** Records the stream thread's CPU per record between two snapshots, and its thread metrics now. */
    void recordCpu(ThreadCpu.Snapshot before, ThreadCpu.Snapshot after, int records, E2eApps.App app) {
        streamCpuUs = ThreadCpu.delta(before.cpu(), after.cpu(), ThreadCpu.STREAM_THREAD) / 1e3 / records;
        senderCpuUs = ThreadCpu.delta(before.cpu(), after.cpu(), ThreadCpu.STREAM_PRODUCER) / 1e3 / records;
        allocatedBytes = ThreadCpu.delta(before.allocated(), after.allocated(), ThreadCpu.STREAM_THREAD)
                / (double) records;
        StringBuilder m = new StringBuilder();
        for (String name : List.of("process-ratio", "poll-ratio", "commit-ratio", "punctuate-ratio",
                "commit-latency-avg", "process-records-avg", "poll-records-avg")) {
            app.metrics().entrySet().stream()
                    .filter(e -> e.getKey().group().equals("stream-thread-metrics") && e.getKey().name().equals(name))
                    .findFirst()
                    .ifPresent(e -> m.append(String.format(Locale.ROOT, " %s=%.3f", name,
                            ((Number) e.getValue().metricValue()).doubleValue())));
        }
        threadMetrics = m.toString().trim();
    }

    /** Records what the reader saw against the {@code sizes} expected per phase. */
    void finish(E2eOutputReader reader, int[] sizes) {
        long absent = 0;
        for (int p = 0; p < sizes.length; p++) {
            absent += sizes[p] - reader.count(p);
        }
        missing = absent;
        duplicates = reader.duplicates();
        violations = reader.orderViolations();
        headers = reader.headers();
        negativeBalances = reader.negativeBalances();
        nonZeroBalances = reader.nonZeroFinalBalances();
        if (reader.unexpected() > 0) {
            error = "unexpected output records: " + reader.unexpected();
        }
    }

    /** The one-line progress summary the harness prints after each run. */
    String summary() {
        if (error != null) {
            return "FAILED " + error;
        }
        Function<Lat, String> lat = l -> l == null ? "-" : String.format(Locale.ROOT, "p50 %.0f p99 %.0f ms", l.p50(),
                l.p99());
        String s = String.format(Locale.ROOT, "preload %.0f rec/s (stream threads %.1f us/rec, %.0f B/rec allocated,"
                + " their producers %.1f us/rec; %s)", preloadRate, streamCpuUs, allocatedBytes, senderCpuUs,
                threadMetrics);
        if (variant.json) {
            s += String.format(Locale.ROOT, ", negative balances %d, non-zero final balances %d", negativeBalances,
                    nonZeroBalances);
        } else if (variant == E2eVariant.TWO_SOURCE && holdsSkew != null) {
            s += String.format(Locale.ROOT, ", no-skew %s, skew %s, held max %.0f mean %.1f (%d/%d samples)",
                    lat.apply(noSkew), lat.apply(skew), holdsSkew.heldMax, holdsSkew.heldMean(),
                    holdsSkew.samplesWithHeld, holdsSkew.samples);
        } else {
            s += String.format(Locale.ROOT, ", live %.0f rec/s %s, paced (%.0f rec/s) %s", liveRate,
                    lat.apply(live), pacedAchieved, lat.apply(paced));
            if (liveCost != null) {
                s += String.format(Locale.ROOT, ", live CPU us/rec: stream %.1f, harness JVM %.1f, broker %.1f",
                        liveCost.streamUs(), liveCost.harnessUs(), liveCost.brokerUs());
            }
        }
        return s + String.format(Locale.ROOT, ", changelog %.2f/rec, missing %d, dup %d, order violations %d,"
                + " load %.1f-%.1f", changelogPerRecord, missing, duplicates, violations, loadStart, loadEnd);
    }
}
