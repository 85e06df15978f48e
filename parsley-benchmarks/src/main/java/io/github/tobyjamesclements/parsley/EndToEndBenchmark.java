package io.github.tobyjamesclements.parsley;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * End-to-end benchmark of the Kafka Streams host against a real broker (docs/performance.md,
 * "The end-to-end harness"). Run through {@code parsley-benchmarks/e2e.sh}, which starts a standalone KRaft
 * broker in its own JVM and passes {@code --bootstrap}.
 *
 * <p>Per round, in a rotating order, with fresh topics, application ids and state directories:
 * <ul>
 *   <li><b>baseline</b>: plain Kafka Streams, exactly_once_v2, source &rarr; copy processor &rarr; sink;</li>
 *   <li><b>parsley</b>: the equivalent Parsley stage ({@code on(in, m -> out.send(m.key(), m.value()))});</li>
 *   <li><b>two-source</b>: a Parsley stage over orders and payments, where every payment is stamped by a
 *       {@link CausalClock} with the orders of its batch (cross-topic dependencies);</li>
 *   <li><b>baseline-store</b>, <b>floor</b>: references on plain Streams, run like the baseline
 *       ({@link E2eApps#baseline}, {@link E2eApps#floor});</li>
 *   <li><b>json-baseline</b>, <b>json-parsley</b> and its reference <b>json-floor</b>: the realistic
 *       variant, JSON balances folded per customer, run by {@link E2eJsonRunner}.</li>
 * </ul>
 * Same partitions, commit interval (100 ms), one stream thread, record sizes and keys for all.
 * Single-source phases: 0 pre-loaded (throughput from RUNNING to the last output), 1 live at full
 * speed (throughput and saturated latency), 2 live at a fixed rate (latency). Two-source phases:
 * 0 pre-loaded pairs, 1 paced pairs with orders committed first, 2 paced pairs with payments
 * committed first (so payments are held).
 *
 * <p>Other modes replace the rounds: {@code --restore}, {@code --header-cost}, {@code --side-by-side}
 * and {@code --pipeline H} ({@link E2ePipeline}: every pre-loaded order re-keyed over H hops by
 * Parsley stages and by plain Streams, per count of {@code --partitions 4,16,64}).
 */
final class EndToEndBenchmark {

    private final E2eOptions options;
    private final Admin admin;
    private final E2eWorkload workload;
    private final E2eApps apps;
    private final E2eTopics topics;
    private final E2eJsonRunner json;
    private final String nonce = Long.toString(System.currentTimeMillis() % 1_000_000, 36);

    EndToEndBenchmark(E2eOptions options, Admin admin) {
        this.options = options;
        this.admin = admin;
        this.workload = new E2eWorkload(options, false);
        this.apps = new E2eApps(options);
        this.topics = new E2eTopics(admin, options.partitions);
        this.json = new E2eJsonRunner(options, admin, apps, topics);
    }

    public static void main(String[] args) throws Exception {
        E2eOptions o = E2eOptions.parse(args);
        Files.createDirectories(o.work);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, o.bootstrap))) {
            admin.describeCluster().nodes().get(60, TimeUnit.SECONDS);
            EndToEndBenchmark b = new EndToEndBenchmark(o, admin);
            String report = b.runAll();
            System.out.println(report);
            Files.writeString(o.work.resolve("results.md"), report, StandardCharsets.UTF_8);
        }
        // Kafka client threads of closed clients can linger; the harness is done.
        System.exit(0);
    }

    String runAll() throws Exception {
        Instant started = Instant.now();
        double loadBefore = loadAverage();
        log("Options: records=%d paced=%d rate=%d rounds=%d partitions=%s keys=%d valueBytes=%d threads=%d"
                + " instances=%d restore=%s header-cost=%s pipeline=%d %s compression=%s max.task.idle.ms=%s",
                options.records, options.paced, options.rate, options.rounds, options.partitionCounts, options.keys,
                options.valueBytes, options.threads, options.instances, options.restoreSizes, options.headerSizes,
                options.pipelineHops, options.pipelineVariants.stream().map(v -> v.label).toList(), options.compression,
                options.taskIdleMs == null ? "default" : options.taskIdleMs);
        // Warm-up: JIT (the compiler threads get little CPU on a loaded machine) and broker; one run per
        // variant, discarded.
        int warmup = options.warmupRecords < 0 ? options.records / 4 * 2 : options.warmupRecords;
        String otherMode = otherMode(started, loadBefore, warmup);
        if (otherMode != null) {
            return otherMode;
        }
        for (E2eVariant v : options.variants) {
            E2eRun w = run(v, 0, warmup, Math.max(4, warmup / 20 * 4));
            log("warm-up %s: %s", v.label, w.summary());
        }
        List<E2eRun> runs = new ArrayList<>();
        List<E2eVariant> order = new ArrayList<>(options.variants);
        for (int r = 1; r <= options.rounds; r++) {
            for (E2eVariant v : order) {
                E2eRun run = run(v, r, options.records, options.paced);
                runs.add(run);
                log("round %d %s: %s", r, v.label, run.summary());
            }
            order.add(order.remove(0));
        }
        double loadAfter = loadAverage();
        return E2eReport.markdown(options, runs, started, Instant.now(), loadBefore, loadAfter);
    }

    /** The report of the restore, header-cost, reads, pipeline or side-by-side mode if one was asked for, else null. */
    private String otherMode(Instant started, double loadBefore, int warmup) throws Exception {
        if (!options.restoreSizes.isEmpty()) {
            return E2eRestoreReport.markdown(options, new E2eRestore(options, admin, apps, topics, nonce).runAll(),
                    setup(started, loadBefore));
        }
        if (!options.headerSizes.isEmpty()) {
            List<E2eHeaderCost.Result> results = new E2eHeaderCost(options, admin, topics, workload, nonce)
                    .runAll(warmup);
            return E2eHeaderCostReport.markdown(options, results, setup(started, loadBefore));
        }
        if (options.readsPerRound > 0) {
            return E2eReads.report(options, admin, apps, nonce, () -> setup(started, loadBefore));
        }
        if (options.pipelineHops > 0) {
            return E2ePipelineReport.markdown(options, new E2ePipeline(options, admin, apps, workload, nonce)
                    .runAll(warmup), setup(started, loadBefore));
        }
        return options.sideBySide ? sideBySide(started, loadBefore, warmup) : null;
    }

    /** The report's setup lines for a mode that has just ended. */
    private String setup(Instant started, double loadBefore) {
        StringBuilder setup = new StringBuilder();
        E2eReport.setup(setup, options, started, Instant.now(), loadBefore, loadAverage());
        return setup.toString();
    }

    private String sideBySide(Instant started, double loadBefore, int warmup) {
        E2eSideBySide sbs = new E2eSideBySide(options, apps, topics, workload, nonce);
        sbs.round(0, warmup).forEach(w -> log("warm-up side by side %s: %s", w.variant.label, w.summary()));
        List<E2eRun> runs = new ArrayList<>();
        for (int r = 1; r <= options.rounds; r++) {
            for (E2eRun run : sbs.round(r, options.records)) {
                runs.add(run);
                log("round %d side by side %s: %s", r, run.variant.label, run.summary());
            }
        }
        return E2eReport.sideBySide(options, runs, started, Instant.now(), loadBefore, loadAverage());
    }

    E2eRun run(E2eVariant v, int round, int records, int paced) {
        E2eRun run = new E2eRun(v, round);
        run.loadStart = loadAverage();
        String id = "e2e-" + nonce + "-" + v.label + "-r" + round;
        Path stateDir = options.work.resolve("state").resolve(id);
        try {
            if (v.json) {
                json.run(run, id, stateDir, records);
            } else if (v == E2eVariant.TWO_SOURCE) {
                runTwoSource(run, id, stateDir, records, paced);
            } else {
                runSingle(run, id, stateDir, records, paced);
            }
        } catch (Exception e) {
            run.error = e.toString();
            log("run %s failed: %s", id, e);
            e.printStackTrace(System.out);
        } finally {
            // every input record yields one output, so the inputs count the outputs too
            double inputs = v.json ? records : v == E2eVariant.TWO_SOURCE ? records + 2L * paced
                    : 2L * records + paced;
            run.changelogPerRecord = topics.changelogRecords(id) / inputs;
            long outputBytes = topics.topicBytes(id + "-out");
            run.outputBytesPerRecord = outputBytes < 0 ? Double.NaN : outputBytes / inputs;
            topics.deleteAllOf(id);
            deleteRecursively(stateDir);
        }
        run.loadEnd = loadAverage();
        return run;
    }

    private void runSingle(E2eRun run, String id, Path stateDir, int records, int paced) throws Exception {
        String in = id + "-in";
        String out = id + "-out";
        topics.create(in, out);
        int[] sizes = {records, records, paced};
        try (E2eOutputReader reader = new E2eOutputReader(options.bootstrap, out, options.partitions, sizes);
                KafkaProducer<byte[], byte[]> producer = workload.transactionalProducer(id + "-tx")) {
            workload.bulk(producer, in, 0, records, options.perTransaction);
            AtomicLong runningAt = new AtomicLong();
            E2eApps.App app = apps.copy(run.variant, id, in, out, stateDir, runningAt, options.storePuts,
                    options.partitions);
            try (app) {
                app.start();
                E2eWait.running(runningAt, options.timeoutSeconds);
                run.measurePreload(app, id, options, reader, runningAt.get(), records);

                E2eLiveCost.Meter liveCost = E2eLiveCost.start(id, options.brokerPid, producer, app::metrics);
                long liveStart = System.nanoTime();
                workload.bulk(producer, in, 1, records, options.perTransaction);
                liveCost.produced();
                awaitPhase(reader, 1);
                run.liveRate = records / ((reader.lastReceipt(1) - liveStart) / 1e9);
                run.liveCost = liveCost.stop(records, (records + options.perTransaction - 1) / options.perTransaction);
                run.live = E2eRun.Lat.of(reader.latencies(1));

                E2eHoldSampler sampler = app.holdSampler();
                run.pacedAchieved = workload.paced(producer, in, 2, paced, options.rate, options.commitEveryMs);
                awaitPhase(reader, 2);
                run.paced = E2eRun.Lat.of(reader.latencies(2));
                if (sampler != null) {
                    run.holdsSkew = sampler.stop();
                }
            }
            run.finish(reader, sizes);
        }
    }

    private void runTwoSource(E2eRun run, String id, Path stateDir, int records, int paced) throws Exception {
        String orders = id + "-orders";
        String payments = id + "-payments";
        String out = id + "-out";
        topics.create(orders, payments, out);
        int[] sizes = {records, paced / 2, paced / 2, paced / 2, paced / 2};
        CausalClock clock = new CausalClock(admin);
        try (E2eOutputReader reader = new E2eOutputReader(options.bootstrap, out, options.partitions, sizes);
                KafkaProducer<byte[], byte[]> orderProducer = workload.transactionalProducer(id + "-orders-tx");
                KafkaProducer<byte[], byte[]> paymentProducer = workload.transactionalProducer(id + "-payments-tx")) {
            workload.pairs(orderProducer, paymentProducer, clock, orders, payments, 0, records / 2,
                    options.perTransaction / 2, 0, false, 0);
            AtomicLong runningAt = new AtomicLong();
            try (E2eApps.App app = apps.parsleyPairs(id, orders, payments, out, stateDir, runningAt)) {
                app.start();
                E2eWait.running(runningAt, options.timeoutSeconds);
                run.measurePreload(app, id, options, reader, runningAt.get(), records);

                // No skew and skew alternate in two halves each (phases 1-4), so neither is always first.
                run.holdsNoSkew = new E2eRun.Holds();
                run.holdsSkew = new E2eRun.Holds();
                double[] achieved = new double[2];
                for (int phase = 1; phase <= 4; phase++) {
                    boolean skew = phase % 2 == 0;
                    E2eHoldSampler sampler = app.holdSampler();
                    achieved[skew ? 1 : 0] += 0.5 * workload.pairs(orderProducer, paymentProducer, clock, orders,
                            payments, phase, paced / 4, options.batchPairs, options.rate, skew,
                            skew ? options.skewMs : 0);
                    awaitPhase(reader, phase);
                    (skew ? run.holdsSkew : run.holdsNoSkew).add(sampler.stop());
                }
                run.noSkewAchieved = achieved[0];
                run.skewAchieved = achieved[1];
                run.noSkew = E2eRun.Lat.of(concat(reader.latencies(1), reader.latencies(3)));
                run.skew = E2eRun.Lat.of(concat(reader.latencies(2), reader.latencies(4)));
            }
            run.finish(reader, sizes);
        }
    }

    private static long[] concat(long[] a, long[] b) {
        long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private void awaitPhase(E2eOutputReader reader, int phase) throws InterruptedException {
        E2eWait.phase(reader, phase, options.timeoutSeconds);
    }

    static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            log("could not delete %s: %s", dir, e);
        }
    }

    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Paths.get("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    static void log(String format, Object... args) {
        System.out.println("[e2e " + Instant.now() + "] " + String.format(Locale.ROOT, format, args));
        System.out.flush();
    }
}
