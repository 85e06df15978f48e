package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.EndToEndBenchmark.log;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Restore mode ({@code --restore N1,N2,...}): how long an instance started on an empty state
 * directory takes to restore N held records and deliver, against a plain Streams application
 * restoring a store of N entries.
 *
 * <p><b>parsley</b>: N payments, each stamped with a claim on offset 0 of every {@code orders}
 * partition, are written while {@code orders} is empty; a two-source stage consumes them and holds
 * every one (its cause is absent). Once it holds N and has committed the payments, it closes.
 * Then one order per partition is written (the causes), and a new instance of the same
 * application starts on an empty state directory: it restores the hold queues from the changelog,
 * delivers the orders and releases the N payments. <b>plain</b>: N records are stored under their
 * own keys by {@link E2eStoreAllProcessor}; after the close, one trigger record per partition is
 * written, and a new instance on an empty state directory restores the store and forwards the
 * triggers. Measured from {@code start()} of the new instance: RUNNING (restore done), the first
 * output and the last output.
 */
final class E2eRestore {

    /**
     * One restore run; {@code error} non-null if it failed. {@code streamCpuMs} and {@code restoreCpuMs}
     * are the CPU time of the new instance's stream threads and state-updater threads from its start
     * to its last output: steadier than the times on a shared machine, and they say whether the
     * instance's own work or its waits (the broker, the restore's reads, commits) set the times.
     */
    record Result(E2eVariant variant, int size, int round, long changelogRecords, long changelogBytes,
            double runningMs, double firstMs, double lastMs, double streamCpuMs, double restoreCpuMs, long missing,
            long duplicates, String error) {
    }

    private final E2eOptions options;
    private final Admin admin;
    private final E2eApps apps;
    private final E2eTopics topics;
    private final E2eWorkload workload;
    private final String nonce;

    E2eRestore(E2eOptions options, Admin admin, E2eApps apps, E2eTopics topics, String nonce) {
        this.options = options;
        this.admin = admin;
        this.apps = apps;
        this.topics = topics;
        this.workload = new E2eWorkload(options, false);
        this.nonce = nonce;
    }

    /** Per round and size, the plain and the Parsley run, their order alternating by round. */
    List<Result> runAll() {
        List<Result> results = new ArrayList<>();
        for (int round = 1; round <= options.rounds; round++) {
            for (int size : options.restoreSizes) {
                List<E2eVariant> order = round % 2 == 1 ? List.of(E2eVariant.BASELINE, E2eVariant.PARSLEY)
                        : List.of(E2eVariant.PARSLEY, E2eVariant.BASELINE);
                for (E2eVariant v : order) {
                    Result r = run(v, size, round);
                    results.add(r);
                    log("restore round %d %s %d: %s", round, v.label, size, r);
                }
            }
        }
        return results;
    }

    private Result run(E2eVariant v, int size, int round) {
        String id = "e2e-" + nonce + "-restore-" + v.label + "-" + size + "-r" + round;
        Path stateDir = options.work.resolve("state").resolve(id);
        try {
            return v == E2eVariant.PARSLEY ? parsley(id, stateDir, size, round) : plain(id, stateDir, size, round);
        } catch (Exception e) {
            log("restore run %s failed: %s", id, e);
            e.printStackTrace(System.out);
            return new Result(v, size, round, 0, 0, 0, 0, 0, 0, 0, 0, 0, e.toString());
        } finally {
            topics.deleteAllOf(id);
            EndToEndBenchmark.deleteRecursively(stateDir);
        }
    }

    private Result parsley(String id, Path stateDir, int size, int round) throws Exception {
        String orders = id + "-orders";
        String payments = id + "-payments";
        String out = id + "-out";
        topics.create(orders, payments, out);
        CausalClock clock = new CausalClock(admin);
        for (int p = 0; p < options.partitions; p++) {
            // Offset 0 of every orders partition, before anything is written there: the absent cause.
            clock.recordProduced(new RecordMetadata(new TopicPartition(orders, p), 0, 0, System.currentTimeMillis(),
                    -1, -1));
        }
        try (KafkaProducer<byte[], byte[]> producer = workload.transactionalProducer(id + "-tx")) {
            workload.bulk(producer, payments, 0, size, options.perTransaction, clock);
            AtomicLong running = new AtomicLong();
            try (E2eApps.App first = apps.parsleyPairs(id, orders, payments, out, stateDir.resolve("a"), running)) {
                first.start();
                E2eWait.running(running, options.timeoutSeconds);
                E2eWait.until(() -> first.held() >= size && topics.consumedAll(id, payments),
                        size + " payments held and committed", options.timeoutSeconds);
            }
            EndToEndBenchmark.deleteRecursively(stateDir.resolve("a"));
            workload.onePerPartition(producer, orders, 1, options.partitions);
            return restart(E2eVariant.PARSLEY, id, out, size, round, new int[] {size, options.partitions},
                    r -> apps.parsleyPairs(id, orders, payments, out, stateDir.resolve("b"), r));
        }
    }

    private Result plain(String id, Path stateDir, int size, int round) throws Exception {
        String in = id + "-in";
        String out = id + "-out";
        topics.create(in, out);
        try (KafkaProducer<byte[], byte[]> producer = workload.transactionalProducer(id + "-tx")) {
            workload.bulk(producer, in, 0, size, options.perTransaction);
            AtomicLong running = new AtomicLong();
            try (E2eApps.App first = apps.storeAll(id, in, out, stateDir.resolve("a"), running)) {
                first.start();
                E2eWait.running(running, options.timeoutSeconds);
                E2eWait.until(() -> topics.consumedAll(id, in), size + " records stored and committed",
                        options.timeoutSeconds);
            }
            EndToEndBenchmark.deleteRecursively(stateDir.resolve("a"));
            workload.onePerPartition(producer, in, 1, options.partitions);
            return restart(E2eVariant.BASELINE, id, out, size, round, new int[] {0, options.partitions},
                    r -> apps.storeAll(id, in, out, stateDir.resolve("b"), r));
        }
    }

    /** Starts the second instance on an empty state directory and times it until every output arrived. */
    private Result restart(E2eVariant v, String id, String out, int size, int round, int[] sizes,
            Function<AtomicLong, E2eApps.App> app) throws Exception {
        long records = topics.changelogRecords(id);
        long bytes = topics.changelogBytes(id);
        try (E2eOutputReader reader = new E2eOutputReader(options.bootstrap, out, options.partitions, sizes)) {
            AtomicLong running = new AtomicLong();
            try (E2eApps.App second = app.apply(running)) {
                // the first instance is closed: every live thread named after the application is the second's
                ThreadCpu.Snapshot before = ThreadCpu.snapshot(id);
                long start = System.nanoTime();
                second.start();
                E2eWait.running(running, options.timeoutSeconds);
                for (int phase = 0; phase < sizes.length; phase++) {
                    E2eWait.phase(reader, phase, options.timeoutSeconds);
                }
                ThreadCpu.Snapshot after = ThreadCpu.snapshot(id);
                long last = 0;
                long missing = 0;
                for (int phase = 0; phase < sizes.length; phase++) {
                    last = Math.max(last, reader.lastReceipt(phase));
                    missing += sizes[phase] - reader.count(phase);
                }
                return new Result(v, size, round, records, bytes, (running.get() - start) / 1e6,
                        (reader.firstReceipt() - start) / 1e6, (last - start) / 1e6,
                        ThreadCpu.delta(before.cpu(), after.cpu(), ThreadCpu.STREAM_THREAD) / 1e6,
                        ThreadCpu.delta(before.cpu(), after.cpu(), ThreadCpu.STATE_UPDATER) / 1e6, missing, reader.duplicates(),
                        reader.unexpected() > 0 ? "unexpected outputs: " + reader.unexpected() : null);
            }
        }
    }
}
