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
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;

/**
 * End-to-end benchmark of the Kafka Streams host against a real broker (docs/performance.md,
 * "End-to-end"). Run through {@code parsley-benchmarks/e2e.sh}, which starts a standalone KRaft
 * broker in its own JVM and passes {@code --bootstrap}.
 *
 * <p>Per round, in a rotating order, with fresh topics, application ids and state directories:
 * <ul>
 *   <li><b>baseline</b>: plain Kafka Streams, exactly_once_v2, source &rarr; copy processor &rarr; sink;</li>
 *   <li><b>parsley</b>: the equivalent Parsley stage ({@code on(in, m -> out.send(m.key(), m.value()))});</li>
 *   <li><b>two-source</b>: a Parsley stage over orders and payments, where every payment is stamped by a
 *       {@link CausalClock} with the orders of its batch (cross-topic dependencies).</li>
 * </ul>
 * Same partitions, commit interval (100 ms), one stream thread, record sizes and keys for all.
 * Single-source phases: 0 pre-loaded (throughput from RUNNING to the last output), 1 live at full
 * speed (throughput and saturated latency), 2 live at a fixed rate (latency). Two-source phases:
 * 0 pre-loaded pairs, 1 paced pairs with orders committed first, 2 paced pairs with payments
 * committed first (so payments are held).
 */
final class EndToEndBenchmark {

    enum Variant {
        BASELINE("baseline"), PARSLEY("parsley"), TWO_SOURCE("two-source"), BASELINE_STORE("baseline-store");

        final String label;

        Variant(String label) {
            this.label = label;
        }
    }

    /** Command-line options; see {@link #usage()}. */
    static final class Options {
        String bootstrap;
        Path work = Paths.get("parsley-benchmarks/target/e2e");
        int records = 100_000;
        int paced = 16_000;
        int rate = 2_500;
        int rounds = 3;
        int partitions = 4;
        int keys = 200;
        int valueBytes = 100;
        int perTransaction = 500;
        long commitEveryMs = 10;
        int batchPairs = 50;
        long skewMs = 10;
        /** Records of the discarded warm-up run of each variant; -1 = half a measured run. */
        int warmupRecords = -1;
        List<Variant> variants = List.of(Variant.BASELINE, Variant.PARSLEY, Variant.TWO_SOURCE,
                Variant.BASELINE_STORE);
        int storePuts = 3;
        long timeoutSeconds = 180;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--bootstrap" -> o.bootstrap = args[++i];
                    case "--work" -> o.work = Paths.get(args[++i]);
                    case "--records" -> o.records = Integer.parseInt(args[++i]);
                    case "--paced" -> o.paced = Integer.parseInt(args[++i]);
                    case "--rate" -> o.rate = Integer.parseInt(args[++i]);
                    case "--rounds" -> o.rounds = Integer.parseInt(args[++i]);
                    case "--partitions" -> o.partitions = Integer.parseInt(args[++i]);
                    case "--keys" -> o.keys = Integer.parseInt(args[++i]);
                    case "--value-bytes" -> o.valueBytes = Integer.parseInt(args[++i]);
                    case "--batch-pairs" -> o.batchPairs = Integer.parseInt(args[++i]);
                    case "--skew-ms" -> o.skewMs = Long.parseLong(args[++i]);
                    case "--warmup" -> o.warmupRecords = Integer.parseInt(args[++i]);
                    case "--store-puts" -> o.storePuts = Integer.parseInt(args[++i]);
                    case "--variants" -> o.variants = Arrays.stream(args[++i].split(","))
                            .map(v -> Arrays.stream(Variant.values()).filter(x -> x.label.equals(v)).findFirst()
                                    .orElseThrow(() -> new IllegalArgumentException("Unknown variant " + v)))
                            .toList();
                    case "--quick" -> {
                        o.records = 20_000;
                        o.paced = 4_000;
                        o.rounds = 2;
                        o.warmupRecords = 10_000;
                    }
                    default -> throw new IllegalArgumentException("Unknown option " + a + "\n" + usage());
                }
            }
            if (o.bootstrap == null) {
                throw new IllegalArgumentException("--bootstrap is required\n" + usage());
            }
            if (o.records % 2 != 0 || o.paced % 4 != 0) {
                throw new IllegalArgumentException("--records must be even and --paced a multiple of 4 (two-source"
                        + " pairs, two interleaved halves per skew mode)");
            }
            return o;
        }

        static String usage() {
            return "EndToEndBenchmark --bootstrap host:port [--work dir] [--quick] [--records N] [--paced M]"
                    + " [--rate R] [--rounds n] [--partitions p] [--keys k] [--value-bytes b] [--batch-pairs b]"
                    + " [--skew-ms ms] [--warmup N] [--variants baseline,parsley,two-source]";
        }
    }

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

    /** One run of one variant in one round. */
    static final class Run {
        final Variant variant;
        final int round;
        double preloadRate;
        double liveRate;
        Lat live;
        Lat paced;
        double pacedAchieved;
        Lat noSkew;
        Lat skew;
        double noSkewAchieved;
        double skewAchieved;
        Holds holdsNoSkew;
        Holds holdsSkew;
        E2eOutputReader.HeaderSizes headers;
        /** Stream-thread CPU per record over the pre-loaded phase, in microseconds. */
        double streamCpuUs;
        /** CPU of the stream thread's producer network thread per record over the same phase. */
        double senderCpuUs;
        /** Thread-level Kafka Streams metrics at the end of the pre-loaded phase. */
        String threadMetrics = "";
        /** Records (and transaction markers) written to the application's changelogs per input record. */
        double changelogPerRecord;
        double loadStart;
        double loadEnd;
        long duplicates;
        long missing;
        long violations;
        String error;

        Run(Variant variant, int round) {
            this.variant = variant;
            this.round = round;
        }
    }

    private final Options options;
    private final Admin admin;
    private final E2eWorkload workload;
    private final String nonce = Long.toString(System.currentTimeMillis() % 1_000_000, 36);

    EndToEndBenchmark(Options options, Admin admin) {
        this.options = options;
        this.admin = admin;
        this.workload = new E2eWorkload(options.bootstrap, options.keys, options.valueBytes);
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args);
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
        log("Options: records=%d paced=%d rate=%d rounds=%d partitions=%d keys=%d valueBytes=%d", options.records,
                options.paced, options.rate, options.rounds, options.partitions, options.keys, options.valueBytes);
        // Warm-up: JIT (the compiler threads get little CPU on a loaded machine) and broker; one run per
        // variant, discarded.
        int warmup = options.warmupRecords < 0 ? options.records / 4 * 2 : options.warmupRecords;
        for (Variant v : options.variants) {
            Run w = run(v, 0, warmup, Math.max(4, warmup / 20 * 4));
            log("warm-up %s: %s", v.label, summary(w));
        }
        List<Run> runs = new ArrayList<>();
        List<Variant> order = new ArrayList<>(options.variants);
        for (int r = 1; r <= options.rounds; r++) {
            for (Variant v : order) {
                Run run = run(v, r, options.records, options.paced);
                runs.add(run);
                log("round %d %s: %s", r, v.label, summary(run));
            }
            order.add(order.remove(0));
        }
        double loadAfter = loadAverage();
        return E2eReport.markdown(options, runs, started, Instant.now(), loadBefore, loadAfter);
    }

    Run run(Variant v, int round, int records, int paced) {
        Run run = new Run(v, round);
        run.loadStart = loadAverage();
        String id = "e2e-" + nonce + "-" + v.label + "-r" + round;
        Path stateDir = options.work.resolve("state").resolve(id);
        try {
            if (v == Variant.TWO_SOURCE) {
                runTwoSource(run, id, stateDir, records, paced);
            } else {
                runSingle(run, id, stateDir, records, paced);
            }
        } catch (Exception e) {
            run.error = e.toString();
            log("run %s failed: %s", id, e);
            e.printStackTrace(System.out);
        } finally {
            run.changelogPerRecord = changelogRecords(id) / (double) (v == Variant.TWO_SOURCE ? records + 2L * paced
                    : 2L * records + paced);
            deleteTopicsOf(id);
            deleteRecursively(stateDir);
        }
        run.loadEnd = loadAverage();
        return run;
    }

    private void runSingle(Run run, String id, Path stateDir, int records, int paced) throws Exception {
        String in = id + "-in";
        String out = id + "-out";
        createTopics(in, out);
        int[] sizes = {records, records, paced};
        try (E2eOutputReader reader = new E2eOutputReader(options.bootstrap, out, options.partitions, sizes);
                KafkaProducer<byte[], byte[]> producer = workload.transactionalProducer(id + "-tx")) {
            workload.bulk(producer, in, 0, records, options.perTransaction);
            AtomicLong runningAt = new AtomicLong();
            App app = switch (run.variant) {
                case BASELINE -> baseline(id, in, out, stateDir, runningAt, 0);
                case BASELINE_STORE -> baseline(id, in, out, stateDir, runningAt, options.storePuts);
                default -> parsleyCopy(id, in, out, stateDir, runningAt);
            };
            try (app) {
                app.start();
                awaitRunning(runningAt);
                Map<String, Long> cpu0 = ThreadCpu.snapshot(id);
                awaitPhase(reader, 0);
                run.preloadRate = records / ((reader.lastReceipt(0) - runningAt.get()) / 1e9);
                recordCpu(run, cpu0, ThreadCpu.snapshot(id), records, app);

                long liveStart = System.nanoTime();
                workload.bulk(producer, in, 1, records, options.perTransaction);
                awaitPhase(reader, 1);
                run.liveRate = records / ((reader.lastReceipt(1) - liveStart) / 1e9);
                run.live = Lat.of(reader.latencies(1));

                HoldSampler sampler = app.holdSampler();
                run.pacedAchieved = workload.paced(producer, in, 2, paced, options.rate, options.commitEveryMs);
                awaitPhase(reader, 2);
                run.paced = Lat.of(reader.latencies(2));
                if (sampler != null) {
                    run.holdsSkew = sampler.stop();
                }
            }
            finish(run, reader, sizes);
        }
    }

    private void runTwoSource(Run run, String id, Path stateDir, int records, int paced) throws Exception {
        String orders = id + "-orders";
        String payments = id + "-payments";
        String out = id + "-out";
        createTopics(orders, payments, out);
        int[] sizes = {records, paced / 2, paced / 2, paced / 2, paced / 2};
        CausalClock clock = new CausalClock(admin);
        try (E2eOutputReader reader = new E2eOutputReader(options.bootstrap, out, options.partitions, sizes);
                KafkaProducer<byte[], byte[]> orderProducer = workload.transactionalProducer(id + "-orders-tx");
                KafkaProducer<byte[], byte[]> paymentProducer = workload.transactionalProducer(id + "-payments-tx")) {
            workload.pairs(orderProducer, paymentProducer, clock, orders, payments, 0, records / 2,
                    options.perTransaction / 2, 0, false, 0);
            AtomicLong runningAt = new AtomicLong();
            try (App app = parsleyPairs(id, orders, payments, out, stateDir, runningAt)) {
                app.start();
                awaitRunning(runningAt);
                Map<String, Long> cpu0 = ThreadCpu.snapshot(id);
                awaitPhase(reader, 0);
                run.preloadRate = records / ((reader.lastReceipt(0) - runningAt.get()) / 1e9);
                recordCpu(run, cpu0, ThreadCpu.snapshot(id), records, app);

                // No skew and skew alternate in two halves each (phases 1-4), so neither is always first.
                run.holdsNoSkew = new Holds();
                run.holdsSkew = new Holds();
                double[] achieved = new double[2];
                for (int phase = 1; phase <= 4; phase++) {
                    boolean skew = phase % 2 == 0;
                    HoldSampler sampler = app.holdSampler();
                    achieved[skew ? 1 : 0] += 0.5 * workload.pairs(orderProducer, paymentProducer, clock, orders,
                            payments, phase, paced / 4, options.batchPairs, options.rate, skew,
                            skew ? options.skewMs : 0);
                    awaitPhase(reader, phase);
                    (skew ? run.holdsSkew : run.holdsNoSkew).add(sampler.stop());
                }
                run.noSkewAchieved = achieved[0];
                run.skewAchieved = achieved[1];
                run.noSkew = Lat.of(concat(reader.latencies(1), reader.latencies(3)));
                run.skew = Lat.of(concat(reader.latencies(2), reader.latencies(4)));
            }
            finish(run, reader, sizes);
        }
    }

    private static void recordCpu(Run run, Map<String, Long> before, Map<String, Long> after, int records, App app) {
        run.streamCpuUs = ThreadCpu.delta(before, after, n -> n.endsWith("-StreamThread-1")) / 1e3 / records;
        run.senderCpuUs = ThreadCpu.delta(before, after, n -> n.contains("StreamThread-1-producer")) / 1e3 / records;
        StringBuilder m = new StringBuilder();
        for (String name : List.of("process-ratio", "poll-ratio", "commit-ratio", "punctuate-ratio",
                "commit-latency-avg", "process-records-avg", "poll-records-avg")) {
            app.metrics().entrySet().stream()
                    .filter(e -> e.getKey().group().equals("stream-thread-metrics") && e.getKey().name().equals(name))
                    .findFirst()
                    .ifPresent(e -> m.append(String.format(Locale.ROOT, " %s=%.3f", name,
                            ((Number) e.getValue().metricValue()).doubleValue())));
        }
        run.threadMetrics = m.toString().trim();
    }

    private static long[] concat(long[] a, long[] b) {
        long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private void finish(Run run, E2eOutputReader reader, int[] sizes) {
        long missing = 0;
        for (int p = 0; p < sizes.length; p++) {
            missing += sizes[p] - reader.count(p);
        }
        run.missing = missing;
        run.duplicates = reader.duplicates();
        run.violations = reader.orderViolations();
        run.headers = reader.headers();
        if (reader.unexpected() > 0) {
            run.error = "unexpected output records: " + reader.unexpected();
        }
    }

    private void awaitPhase(E2eOutputReader reader, int phase) throws InterruptedException {
        if (!reader.await(phase, Duration.ofSeconds(options.timeoutSeconds))) {
            throw new IllegalStateException("Timed out waiting for phase " + phase + " outputs; received "
                    + reader.count(phase));
        }
    }

    private void awaitRunning(AtomicLong runningAt) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(options.timeoutSeconds);
        while (runningAt.get() <= 0) {
            if (runningAt.get() == FAILED) {
                throw new IllegalStateException("Application failed before RUNNING (see harness-clients.log)");
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Application did not reach RUNNING");
            }
            Thread.sleep(5);
        }
    }

    // Applications -------------------------------------------------------------------------

    /** The value of {@code runningAt} once the application entered ERROR before RUNNING. */
    static final long FAILED = -1;

    /** Records the first RUNNING in {@code runningAt}; ERROR before it as {@link #FAILED}. */
    static KafkaStreams.StateListener runningListener(AtomicLong runningAt) {
        return (now, old) -> {
            if (now == KafkaStreams.State.RUNNING) {
                runningAt.compareAndSet(0, System.nanoTime());
            } else if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.PENDING_ERROR) {
                runningAt.compareAndSet(0, FAILED);
            }
        };
    }

    /** A started-or-startable application of either kind. */
    interface App extends AutoCloseable {
        void start();

        /** Starts sampling holds now; null for the plain Streams baseline. */
        HoldSampler holdSampler();

        Map<MetricName, ? extends org.apache.kafka.common.Metric> metrics();

        @Override
        void close();
    }

    Properties streamsProps(String applicationId, Path stateDir) {
        Properties p = new Properties();
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrap);
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        return p;
    }

    /**
     * Plain Kafka Streams EOS copy: source, processor forwarding each record unchanged, sink. With
     * {@code storePuts > 0} (the {@code baseline-store} reference) the processor also writes that
     * many 16-byte values per record to a logged RocksDB store without caching: what Parsley's
     * protocol-store writes cost before its stores were cached.
     */
    App baseline(String id, String in, String out, Path stateDir, AtomicLong runningAt, int storePuts) {
        Topology t = new Topology();
        t.addSource(AutoOffsetReset.earliest(), "source", new ByteArrayDeserializer(), new ByteArrayDeserializer(), in);
        t.addProcessor("copy", () -> new Copy(storePuts), "source");
        if (storePuts > 0) {
            t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(Copy.STORE), Serdes.Bytes(),
                    Serdes.ByteArray()).withCachingDisabled(), "copy");
        }
        t.addSink("sink", out, new ByteArraySerializer(), new ByteArraySerializer(), "copy");
        KafkaStreams streams = new KafkaStreams(t, streamsProps(id, stateDir));
        streams.setStateListener(runningListener(runningAt));
        return new App() {
            @Override
            public void start() {
                streams.start();
            }

            @Override
            public HoldSampler holdSampler() {
                return null;
            }

            @Override
            public Map<MetricName, ? extends org.apache.kafka.common.Metric> metrics() {
                return streams.metrics();
            }

            @Override
            public void close() {
                streams.close(Duration.ofSeconds(30));
            }
        };
    }

    /** The baseline's processor: forwards the record as it is (after {@code storePuts} store writes). */
    static final class Copy implements Processor<byte[], byte[], byte[], byte[]> {
        static final String STORE = "copy-store";
        private final int storePuts;
        private ProcessorContext<byte[], byte[]> context;
        private KeyValueStore<Bytes, byte[]> store;
        private Bytes[] keys;
        private long counter;

        Copy(int storePuts) {
            this.storePuts = storePuts;
        }

        @Override
        public void init(ProcessorContext<byte[], byte[]> context) {
            this.context = context;
            if (storePuts > 0) {
                store = context.getStateStore(STORE);
                keys = new Bytes[storePuts];
                for (int i = 0; i < storePuts; i++) {
                    keys[i] = Bytes.wrap(("w/" + context.taskId() + "/" + i).getBytes(StandardCharsets.UTF_8));
                }
            }
        }

        @Override
        public void process(Record<byte[], byte[]> record) {
            for (int i = 0; i < storePuts; i++) {
                store.put(keys[i], java.nio.ByteBuffer.allocate(16).putLong(++counter).putLong(i).array());
            }
            context.forward(record);
        }
    }

    App parsleyCopy(String id, String in, String out, Path stateDir, AtomicLong runningAt) {
        Topic<byte[], byte[]> i = Topic.of(in, Codec.bytes(), Codec.bytes());
        Topic<byte[], byte[]> o = Topic.of(out, Codec.bytes(), Codec.bytes());
        Stage copy = Stage.named("copy").on(i, m -> List.of(o.send(m.key(), m.value()))).into(o).build();
        return parsley(id, stateDir, runningAt, copy);
    }

    App parsleyPairs(String id, String orders, String payments, String out, Path stateDir, AtomicLong runningAt) {
        Topic<byte[], byte[]> ord = Topic.of(orders, Codec.bytes(), Codec.bytes());
        Topic<byte[], byte[]> pay = Topic.of(payments, Codec.bytes(), Codec.bytes());
        Topic<byte[], byte[]> o = Topic.of(out, Codec.bytes(), Codec.bytes());
        Stage pairs = Stage.named("pairs")
                .on(ord, m -> List.of(o.send(m.key(), m.value())))
                .on(pay, m -> List.of(o.send(m.key(), m.value())))
                .into(o).build();
        return parsley(id, stateDir, runningAt, pairs);
    }

    private App parsley(String id, Path stateDir, AtomicLong runningAt, Stage stage) {
        CausalStreams streams = Parsley.named(id, stage).streams(streamsProps(id, stateDir));
        streams.setStateListener(runningListener(runningAt));
        return new App() {
            @Override
            public void start() {
                streams.start();
            }

            @Override
            public HoldSampler holdSampler() {
                return new HoldSampler(streams);
            }

            @Override
            public Map<MetricName, ? extends org.apache.kafka.common.Metric> metrics() {
                return streams.metrics();
            }

            @Override
            public void close() {
                streams.close(Duration.ofSeconds(30));
            }
        };
    }

    /**
     * Samples every 50 ms, until stopped, the {@code records-held} gauge summed over the tasks (each
     * task records it as holds start and end), the held heads of {@link CausalStreams#explainHolds()}
     * and the longest hold age.
     */
    static final class HoldSampler {
        private final Holds holds = new Holds();
        private final Thread thread;
        private volatile boolean stop;

        HoldSampler(CausalStreams streams) {
            thread = new Thread(() -> {
                while (!stop) {
                    sample(streams);
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "e2e-hold-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        private void sample(CausalStreams streams) {
            double held = 0;
            double age = 0;
            for (Map.Entry<MetricName, ? extends org.apache.kafka.common.Metric> e : streams.metrics().entrySet()) {
                MetricName n = e.getKey();
                if (!n.group().equals(MetricNames.GROUP) || n.tags().containsKey("topic")) {
                    continue;
                }
                Object value = e.getValue().metricValue();
                if (!(value instanceof Number num) || Double.isNaN(num.doubleValue())) {
                    continue;
                }
                if (n.name().equals("records-held")) {
                    held += num.doubleValue();
                } else if (n.name().equals("records-held-age-max-ms")) {
                    age = Math.max(age, num.doubleValue());
                }
            }
            int heads = streams.explainHolds().size();
            synchronized (holds) {
                holds.samples++;
                holds.heldSum += (long) held;
                holds.heldMax = Math.max(holds.heldMax, held);
                if (held > 0 || heads > 0) {
                    holds.samplesWithHeld++;
                }
                holds.headsMax = Math.max(holds.headsMax, heads);
                holds.ageMaxMs = Math.max(holds.ageMaxMs, age);
            }
        }

        Holds stop() throws InterruptedException {
            stop = true;
            thread.join(5_000);
            synchronized (holds) {
                return holds;
            }
        }
    }

    // Broker housekeeping --------------------------------------------------------------------

    private void createTopics(String... names) throws Exception {
        List<NewTopic> topics = Arrays.stream(names).map(n -> new NewTopic(n, options.partitions, (short) 1)).toList();
        admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                if (admin.describeTopics(List.of(names)).allTopicNames().get(10, TimeUnit.SECONDS).values().stream()
                        .allMatch(d -> d.partitions().size() == options.partitions
                                && d.partitions().stream().allMatch(p -> p.leader() != null))) {
                    return;
                }
            } catch (ExecutionException | TimeoutException notYet) {
                // metadata not propagated yet
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Topics not ready: " + List.of(names));
            }
            Thread.sleep(20);
        }
    }

    /** The sum of the end offsets of the application's changelog topics. */
    private long changelogRecords(String id) {
        try {
            List<String> changelogs = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith(id + "-") && t.endsWith("-changelog")).toList();
            if (changelogs.isEmpty()) {
                return 0;
            }
            Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> specs =
                    new java.util.HashMap<>();
            admin.describeTopics(changelogs).allTopicNames().get(30, TimeUnit.SECONDS).forEach((name, d) ->
                    d.partitions().forEach(p -> specs.put(new org.apache.kafka.common.TopicPartition(name,
                            p.partition()), org.apache.kafka.clients.admin.OffsetSpec.latest())));
            return admin.listOffsets(specs).all().get(30, TimeUnit.SECONDS).values().stream()
                    .mapToLong(org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo::offset).sum();
        } catch (Exception e) {
            log("could not count changelog records of %s: %s", id, e);
            return -1;
        }
    }

    private void deleteTopicsOf(String id) {
        try {
            Set<String> all = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<String> mine = all.stream().filter(t -> t.startsWith(id + "-")).toList();
            if (!mine.isEmpty()) {
                admin.deleteTopics(mine).all().get(60, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            log("could not delete topics of %s: %s", id, e);
        }
    }

    private static void deleteRecursively(Path dir) {
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

    private static String summary(Run r) {
        if (r.error != null) {
            return "FAILED " + r.error;
        }
        Function<Lat, String> lat = l -> l == null ? "-" : String.format(Locale.ROOT, "p50 %.0f p99 %.0f ms", l.p50(),
                l.p99());
        String s = String.format(Locale.ROOT, "preload %.0f rec/s (stream thread %.1f us/rec, its producer %.1f us/rec;"
                + " %s)", r.preloadRate, r.streamCpuUs, r.senderCpuUs, r.threadMetrics);
        if (r.variant == Variant.TWO_SOURCE && r.holdsSkew != null) {
            s += String.format(Locale.ROOT, ", no-skew %s, skew %s, held max %.0f mean %.1f (%d/%d samples)",
                    lat.apply(r.noSkew), lat.apply(r.skew), r.holdsSkew.heldMax, r.holdsSkew.heldMean(),
                    r.holdsSkew.samplesWithHeld, r.holdsSkew.samples);
        } else {
            s += String.format(Locale.ROOT, ", live %.0f rec/s %s, paced (%.0f rec/s) %s", r.liveRate,
                    lat.apply(r.live), r.pacedAchieved, lat.apply(r.paced));
        }
        return s + String.format(Locale.ROOT, ", changelog %.2f/rec, missing %d, dup %d, order violations %d,"
                + " load %.1f-%.1f", r.changelogPerRecord, r.missing, r.duplicates, r.violations, r.loadStart,
                r.loadEnd);
    }

    static void log(String format, Object... args) {
        System.out.println("[e2e " + Instant.now() + "] " + String.format(Locale.ROOT, format, args));
        System.out.flush();
    }

    static String joined(List<String> parts) {
        return parts.stream().collect(Collectors.joining(", "));
    }
}
