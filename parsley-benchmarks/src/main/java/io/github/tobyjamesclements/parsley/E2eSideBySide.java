package io.github.tobyjamesclements.parsley;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * The side-by-side mode ({@code --side-by-side}): per round, the selected single-source variants
 * run their pre-loaded phase <em>at the same time</em>, each on its own topics, so that every
 * variant of a round meets the same machine. In the sequential rounds, the runs of one round are
 * tens of seconds apart on a shared machine, and a round's ratio carries whatever changed in
 * between; here the applications compete for the cores with each other and with the broker alike.
 * Each application's stream-thread CPU and allocation are read from its own {@code RUNNING} to the
 * moment its last output is read; its throughput over the same window. Only the pre-loaded phase
 * runs: the live and paced phases measure latency and rates that one application's load on the
 * other would distort.
 */
final class E2eSideBySide {

    private final E2eOptions options;
    private final E2eApps apps;
    private final E2eTopics topics;
    private final E2eWorkload workload;
    private final String nonce;

    E2eSideBySide(E2eOptions options, E2eApps apps, E2eTopics topics, E2eWorkload workload, String nonce) {
        for (E2eVariant v : options.variants) {
            if (v != E2eVariant.BASELINE && v != E2eVariant.FLOOR && v != E2eVariant.PARSLEY) {
                throw new IllegalArgumentException("--side-by-side runs the single-source copies only (baseline,"
                        + " floor, parsley); remove " + v.label + " from --variants");
            }
        }
        this.options = options;
        this.apps = apps;
        this.topics = topics;
        this.workload = workload;
        this.nonce = nonce;
    }

    /** One application of a round, with its topics, reader and what was measured of it. */
    private final class Lane {
        final E2eRun run;
        final String id;
        final Path stateDir;
        final String in;
        final String out;
        final AtomicLong runningAt = new AtomicLong();
        E2eOutputReader reader;
        E2eApps.App app;
        ThreadCpu.Snapshot cpu0;
        boolean done;

        Lane(E2eVariant v, int round) {
            run = new E2eRun(v, round);
            id = "e2e-" + nonce + "-sbs-" + v.label + "-r" + round;
            stateDir = options.work.resolve("state").resolve(id);
            in = id + "-in";
            out = id + "-out";
        }
    }

    /** Runs one round of every selected variant side by side; a failure fails each run of the round. */
    List<E2eRun> round(int round, int records) {
        List<Lane> lanes = new ArrayList<>();
        options.variants.forEach(v -> lanes.add(new Lane(v, round)));
        double load = EndToEndBenchmark.loadAverage();
        try {
            for (Lane l : lanes) {
                topics.create(l.in, l.out);
                l.reader = new E2eOutputReader(options.bootstrap, l.out, options.partitions, new int[] {records});
                try (KafkaProducer<byte[], byte[]> producer = workload.transactionalProducer(l.id + "-tx")) {
                    workload.bulk(producer, l.in, 0, records, options.perTransaction);
                }
                l.app = apps.copy(l.run.variant, l.id, l.in, l.out, l.stateDir, l.runningAt, 0, options.partitions);
            }
            lanes.forEach(l -> l.app.start());
            measure(lanes, records);
        } catch (Exception e) {
            lanes.forEach(l -> l.run.error = e.toString());
            EndToEndBenchmark.log("side-by-side round %d failed: %s", round, e);
        } finally {
            for (Lane l : lanes) {
                close(l, records, load);
            }
        }
        return lanes.stream().map(l -> l.run).toList();
    }

    private void measure(List<Lane> lanes, int records) throws InterruptedException {
        long deadline = System.nanoTime() + options.timeoutSeconds * 1_000_000_000L;
        int open = lanes.size();
        while (open > 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Side-by-side round timed out after " + options.timeoutSeconds
                        + " s; outputs read: " + lanes.stream().map(l -> l.run.variant.label + "=" + l.reader.count(0))
                        .toList());
            }
            for (Lane l : lanes) {
                if (l.cpu0 == null && l.runningAt.get() != 0) {
                    if (l.runningAt.get() == E2eApps.FAILED) {
                        throw new IllegalStateException(l.run.variant.label + " failed before RUNNING");
                    }
                    l.cpu0 = ThreadCpu.snapshot(l.id);
                }
                if (l.cpu0 != null && !l.done && l.reader.count(0) >= records) {
                    l.run.recordCpu(l.cpu0, ThreadCpu.snapshot(l.id), records, l.app);
                    l.run.preloadRate = records / ((l.reader.lastReceipt(0) - l.runningAt.get()) / 1e9);
                    l.done = true;
                    open--;
                }
            }
            // A polling harness loop, not a test's synchronisation: it reads each lane's counters.
            Thread.sleep(2);
        }
    }

    private void close(Lane l, int records, double load) {
        try {
            if (l.app != null) {
                l.app.close();
            }
            if (l.reader != null) {
                l.reader.close();
                l.run.finish(l.reader, new int[] {records});
            }
        } catch (Exception e) {
            l.run.error = e.toString();
        } finally {
            l.run.loadStart = load;
            l.run.loadEnd = EndToEndBenchmark.loadAverage();
            topics.deleteAllOf(l.id);
            EndToEndBenchmark.deleteRecursively(l.stateDir);
        }
    }
}
