package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.EndToEndBenchmark.deleteRecursively;
import static io.github.tobyjamesclements.parsley.EndToEndBenchmark.loadAverage;
import static io.github.tobyjamesclements.parsley.EndToEndBenchmark.log;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier;

/**
 * The pipeline mode ({@code --pipeline H}, issue 44): stages that re-key, over several hops of one
 * application, as Parsley stages and as plain Kafka Streams processors with the same serdes and
 * settings ({@link E2eApps#streamsProps}: exactly_once_v2, one stream thread, 100 ms commits), and
 * if asked ({@code --pipeline-variants}) as the plain processors paying for a stamp of Parsley's size
 * ({@link E2ePipelineFloor}).
 *
 * <p>Hop {@code h} reads topic {@code h - 1} of {@link #TOPICS} ({@code orders, notes, audited,
 * archive}) and writes each record's value unchanged to topic {@code h} under a new key: one of
 * {@link #KEYS} keys picked by a hash of the order id (the value's seq) and the hop, which does not
 * depend on the input key, so every task's outputs spread over every partition of the next topic.
 * Every topic of a run has P partitions. For each count of {@code --partitions} in turn: a discarded
 * warm-up run of each variant before the first count, then {@code --rounds} rounds, the variants in
 * an order that rotates by one from round to round. A run pre-loads {@code --records} orders, starts the
 * application, and measures its throughput (orders from its first RUNNING to the last output of the
 * last hop) and its stream thread's CPU and allocation per order; once the application has closed it
 * reads every hop's output topic to its committed end and checks that every order is there once per
 * hop, none missing or duplicated, sizing every output's {@code vc} header on the way.
 */
final class E2ePipeline {

    static final int MAX_HOPS = 3;
    /** Distinct output keys of every hop. */
    static final int KEYS = 1_000;
    static final List<String> TOPICS = List.of("orders", "notes", "audited", "archive");
    private static final byte[][] KEY_BYTES = new byte[KEYS][];

    static {
        for (int k = 0; k < KEYS; k++) {
            KEY_BYTES[k] = String.format(Locale.ROOT, "order-%03d", k).getBytes(StandardCharsets.UTF_8);
        }
    }

    /** What a run's reader of one hop's output topic counted once the application had closed. */
    record Hop(String topic, E2eHeaderSizes headers, long missing, long duplicates, long unexpected,
            double bytesPerRecord) {
        boolean clean() {
            return missing == 0 && duplicates == 0 && unexpected == 0;
        }
    }

    /** One run: its partition count, its figures, and its hops, in order (none if it failed before reading). */
    record Result(int partitions, E2eRun run, List<Hop> hops) {
    }

    private final E2eOptions options;
    private final Admin admin;
    private final E2eApps apps;
    private final E2eWorkload workload;
    private final String nonce;

    E2ePipeline(E2eOptions options, Admin admin, E2eApps apps, E2eWorkload workload, String nonce) {
        this.options = options;
        this.admin = admin;
        this.apps = apps;
        this.workload = workload;
        this.nonce = nonce;
    }

    /** The output key of order {@code value} at {@code hop}. */
    static byte[] key(byte[] value, int hop) {
        return KEY_BYTES[keyIndex(E2eWorkload.seq(value), hop)];
    }

    /** Which of the {@link #KEYS} keys order {@code orderId} gets at {@code hop}: murmur3's finaliser of both. */
    static int keyIndex(int orderId, int hop) {
        int h = orderId * 0x9E3779B1 + hop * 0x85EBCA6B;
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        h ^= h >>> 16;
        return Math.floorMod(h, KEYS);
    }

    /** Every run of every partition count; warm-up runs ({@code warmup} orders, none if 0) are logged only. */
    List<Result> runAll(int warmup) {
        List<Result> results = new ArrayList<>();
        List<E2eVariant> order = new ArrayList<>(options.pipelineVariants);
        for (int p : options.partitionCounts) {
            if (p == options.partitions && warmup > 0) {
                for (E2eVariant v : order) {
                    log("pipeline warm-up %s, %d partitions: %s", v.label, p, summary(run(v, p, 0, warmup)));
                }
            }
            for (int round = 1; round <= options.rounds; round++) {
                for (E2eVariant v : order) {
                    Result r = run(v, p, round, options.records);
                    results.add(r);
                    log("pipeline %d partitions, round %d, %s: %s", p, round, v.label, summary(r));
                }
                order.add(order.remove(0));
            }
        }
        return results;
    }

    private static String summary(Result r) {
        E2eRun run = r.run();
        if (run.error != null) {
            return "FAILED " + run.error;
        }
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "preload %.0f orders/s (stream thread %.1f"
                + " us/order, %.0f B/order allocated, its producer %.1f us/order; %s), changelog %.2f/order, load"
                + " %.1f-%.1f", run.preloadRate, run.streamCpuUs, run.allocatedBytes, run.senderCpuUs, run.threadMetrics,
                run.changelogPerRecord, run.loadStart, run.loadEnd));
        for (Hop h : r.hops()) {
            s.append(String.format(Locale.ROOT, "; %s: vc mean %.0f p99 %d max %d B, missing %d, dup %d, unexpected %d",
                    h.topic(), h.headers().valueMean(), h.headers().valuePercentile(0.99), h.headers().valueMax,
                    h.missing(), h.duplicates(), h.unexpected()));
        }
        return s.toString();
    }

    Result run(E2eVariant v, int partitions, int round, int records) {
        E2eRun run = new E2eRun(v, round);
        run.loadStart = loadAverage();
        String id = "e2e-" + nonce + "-" + v.label + "-p" + partitions + "-r" + round;
        Path stateDir = options.work.resolve("state").resolve(id);
        E2eTopics topics = new E2eTopics(admin, partitions);
        List<String> names = TOPICS.subList(0, options.pipelineHops + 1).stream().map(t -> id + "-" + t).toList();
        List<Hop> hops = new ArrayList<>();
        try {
            topics.create(names.toArray(String[]::new));
            measure(run, id, names, topics, stateDir, records, hops);
        } catch (Exception e) {
            run.error = e.toString();
            log("run %s failed: %s", id, e);
            e.printStackTrace(System.out);
        } finally {
            run.changelogPerRecord = topics.changelogRecords(id) / (double) records;
            topics.deleteAllOf(id);
            deleteRecursively(stateDir);
        }
        run.loadEnd = loadAverage();
        return new Result(partitions, run, hops);
    }

    private void measure(E2eRun run, String id, List<String> names, E2eTopics topics, Path stateDir, int records,
            List<Hop> hops) throws Exception {
        int partitions = topics.partitions();
        int[] sizes = {records};
        List<E2eOutputReader> readers = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = workload.transactionalProducer(id + "-tx")) {
            for (String out : names.subList(1, names.size())) {
                readers.add(new E2eOutputReader(options.bootstrap, out, partitions, sizes));
            }
            workload.bulk(producer, names.get(0), 0, records, options.perTransaction);
            AtomicLong runningAt = new AtomicLong();
            try (E2eApps.App app = app(run.variant, id, names, stateDir, runningAt, partitions)) {
                app.start();
                E2eWait.running(runningAt, options.timeoutSeconds);
                run.measurePreload(app, id, options, readers.get(readers.size() - 1),
                        () -> readers.stream().mapToLong(E2eOutputReader::cpuNanos).sum(), runningAt.get(), records);
                for (E2eOutputReader r : readers) {
                    E2eWait.phase(r, 0, options.timeoutSeconds);
                }
            }
            // Closed: nothing more can be written, so reading each topic to its end counts late duplicates too.
            for (int h = 0; h < readers.size(); h++) {
                hops.add(check(readers.get(h), names.get(h + 1), topics, records));
            }
        } finally {
            for (E2eOutputReader r : readers) {
                r.close();
            }
        }
        run.missing = hops.stream().mapToLong(Hop::missing).sum();
        run.duplicates = hops.stream().mapToLong(Hop::duplicates).sum();
        run.headers = hops.get(hops.size() - 1).headers();
        long unexpected = hops.stream().mapToLong(Hop::unexpected).sum();
        if (unexpected > 0) {
            run.error = "unexpected output records: " + unexpected;
        }
    }

    private Hop check(E2eOutputReader reader, String topic, E2eTopics topics, int records) throws Exception {
        if (!reader.awaitEnd(topics.committedEnds(topic), Duration.ofSeconds(options.timeoutSeconds))) {
            throw new IllegalStateException("Timed out reading " + topic + " to its end");
        }
        long bytes = topics.topicBytes(topic);
        return new Hop(topic.substring(topic.lastIndexOf('-') + 1), reader.headers(), records - reader.count(0),
                reader.duplicates(), reader.unexpected(), bytes < 0 ? Double.NaN : bytes / (double) records);
    }

    private E2eApps.App app(E2eVariant v, String id, List<String> names, Path stateDir, AtomicLong runningAt,
            int partitions) {
        return switch (v) {
            case PIPELINE_BASELINE -> plain(id, names, stateDir, runningAt);
            case PIPELINE_FLOOR -> E2ePipelineFloor.app(apps, id, names, stateDir, runningAt, partitions);
            case PIPELINE_PARSLEY -> parsley(id, names, stateDir, runningAt);
            default -> throw new IllegalArgumentException("Not a pipeline variant: " + v.label);
        };
    }

    /** Plain Kafka Streams: per hop, a source, an {@link E2eRekeyProcessor} and a sink, with byte-array serdes. */
    private E2eApps.App plain(String id, List<String> names, Path stateDir, AtomicLong runningAt) {
        return apps.plain(id, stateDir, runningAt, new DefaultKafkaClientSupplier(), () -> {
            Topology t = new Topology();
            for (int hop = 1; hop < names.size(); hop++) {
                int h = hop;
                t.addSource(AutoOffsetReset.earliest(), "source-" + h, new ByteArrayDeserializer(),
                        new ByteArrayDeserializer(), names.get(h - 1));
                t.addProcessor("rekey-" + h, () -> new E2eRekeyProcessor(h), "source-" + h);
                t.addSink("sink-" + h, names.get(h), new ByteArraySerializer(), new ByteArraySerializer(),
                        "rekey-" + h);
            }
            return t;
        });
    }

    /** Parsley: one stage per hop ({@code hop1}, ...), each {@code on(in, m -> out.send(key(m), m.value()))}. */
    private E2eApps.App parsley(String id, List<String> names, Path stateDir, AtomicLong runningAt) {
        Stage[] stages = new Stage[names.size() - 1];
        for (int hop = 1; hop < names.size(); hop++) {
            int h = hop;
            Topic<byte[], byte[]> in = Topic.of(names.get(h - 1), Codec.bytes(), Codec.bytes());
            Topic<byte[], byte[]> out = Topic.of(names.get(h), Codec.bytes(), Codec.bytes());
            stages[h - 1] = Stage.named("hop" + h).on(in, m -> List.of(out.send(key(m.value(), h), m.value())))
                    .into(out).build();
        }
        return apps.parsley(id, stateDir, runningAt, stages);
    }
}
