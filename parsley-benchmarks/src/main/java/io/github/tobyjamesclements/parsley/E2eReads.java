package io.github.tobyjamesclements.parsley;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Reads mode of the harness ({@code --reads N}; docs/performance.md, "Reads of fold state"): a
 * Parsley fold counting payments per key and a plain Kafka Streams processor keeping the same
 * count in a cached store of the same size, both loaded with {@code --keys} keys over
 * {@code --partitions} partitions. Per round: N local reads of random keys through each
 * ({@code CausalStreams.read} without a token against IQv2 {@code KeyQuery} on the key's partition,
 * the strongest plain baseline), in alternating order; then read-after-write samples: a stamped
 * send, then a read with its token until it answers, timed from the send, against the same send's
 * pipeline latency (until the fold's output record reaches a read-committed consumer).
 */
final class E2eReads {

    private static final String STAGE = "balances";
    private static final String PLAIN_STORE = "plain-counts";

    private final E2eOptions options;
    private final Admin admin;
    private final E2eApps apps;
    private final String nonce;

    E2eReads(E2eOptions options, Admin admin, E2eApps apps, String nonce) {
        this.options = options;
        this.admin = admin;
        this.apps = apps;
        this.nonce = nonce;
    }

    /** One round's figures: latencies in microseconds. */
    record Round(int round, double plainP50, double plainP99, double parsleyP50, double parsleyP99,
            double rawP50, double pipelineP50, int samples) {
    }

    /** Runs the mode and reports it; {@code setup} gives the report's setup lines once the runs ended. */
    static String report(E2eOptions o, Admin admin, E2eApps apps, String nonce,
            java.util.function.Supplier<String> setup) throws Exception {
        List<Round> rounds = new E2eReads(o, admin, apps, nonce).runAll();
        return E2eReadsReport.markdown(o, rounds, setup.get());
    }

    List<Round> runAll() throws Exception {
        String payments = "reads-payments-" + nonce;
        String out = "reads-out-" + nonce;
        String plainOut = "reads-plain-out-" + nonce;
        new E2eTopics(admin, options.partitions).create(payments, out, plainOut);
        Path state = options.work.resolve("state").resolve("reads-" + nonce);
        Topic<String, String> p = Topic.of(payments, Codec.utf8(), Codec.utf8());
        Topic<String, String> o = Topic.of(out, Codec.utf8(), Codec.utf8());
        Parsley app = Parsley.named("reads-parsley-" + nonce, Stage.named(STAGE).state(Codec.int64(), () -> 0L)
                .on(p, (Long n, Message<String, String> m) -> Step.of(n + 1, o.send(m.key(), m.value())))
                .into(o).build());
        String plainId = "reads-plain-" + nonce;
        List<Round> rounds = new ArrayList<>();
        try (CausalStreams parsley = app.streams(apps.streamsProps(app.applicationId(), state.resolve("parsley")));
                KafkaStreams plain = new KafkaStreams(plainTopology(payments, plainOut),
                        apps.streamsProps(plainId, state.resolve("plain")));
                KafkaProducer<String, String> producer = producer()) {
            parsley.start();
            plain.start();
            CausalClock clock = new CausalClock(admin);
            for (int k = 0; k < options.keys; k++) {
                clock.recordProduced(producer.send(new ProducerRecord<>(payments, key(k), "load")).get());
            }
            awaitLoaded(parsley, plain, clock.token());
            try (OutputWatch watch = new OutputWatch(out)) {
                for (int r = 0; r <= options.rounds; r++) {
                    Round round = round(r, parsley, plain, producer, clock, payments, watch);
                    EndToEndBenchmark.log("reads %s %d: plain p50 %.1f us p99 %.1f us, parsley p50 %.1f us p99 %.1f us,"
                            + " read-after-write p50 %.1f ms, pipeline p50 %.1f ms", r == 0 ? "warm-up" : "round", r,
                            round.plainP50, round.plainP99, round.parsleyP50, round.parsleyP99, round.rawP50 / 1000,
                            round.pipelineP50 / 1000);
                    if (r > 0) {
                        rounds.add(round);
                    }
                }
            }
        }
        return rounds;
    }

    private Round round(int r, CausalStreams parsley, KafkaStreams plain, KafkaProducer<String, String> producer,
            CausalClock clock, String payments, OutputWatch watch) throws Exception {
        Random random = new Random(r);
        int reads = options.readsPerRound;
        long[] plainNanos = new long[reads];
        long[] parsleyNanos = new long[reads];
        for (int half = 0; half < 2; half++) {
            boolean plainFirst = (r + half) % 2 == 0;
            for (int pass = 0; pass < 2; pass++) {
                boolean doPlain = plainFirst == (pass == 0);
                for (int i = half; i < reads; i += 2) {
                    String key = key(random.nextInt(options.keys));
                    long t0 = System.nanoTime();
                    if (doPlain) {
                        requireValue(plainRead(plain, key));
                        plainNanos[i] = System.nanoTime() - t0;
                    } else {
                        requireValue(parsley.read(STAGE, key, CausalToken.empty(), Duration.ZERO));
                        parsleyNanos[i] = System.nanoTime() - t0;
                    }
                }
            }
        }
        int samples = Math.max(20, reads / 100);
        long[] raw = new long[samples];
        long[] pipeline = new long[samples];
        for (int i = 0; i < samples; i++) {
            String key = key(random.nextInt(options.keys));
            String marker = "s-" + r + "-" + i;
            long t0 = System.nanoTime();
            clock.recordProduced(producer.send(new ProducerRecord<>(payments, key, marker)).get());
            StateRead<Long> read = parsley.read(STAGE, key, clock.token(), Duration.ofSeconds(30));
            raw[i] = System.nanoTime() - t0;
            requireValue(read);
            pipeline[i] = watch.await(marker) - t0;
        }
        return new Round(r, micros(plainNanos, 0.5), micros(plainNanos, 0.99), micros(parsleyNanos, 0.5),
                micros(parsleyNanos, 0.99), micros(raw, 0.5), micros(pipeline, 0.5), samples);
    }

    private byte[] plainRead(KafkaStreams plain, String key) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        int partition = StampingDoor.partition(k, options.partitions);
        QueryResult<byte[]> r = plain.query(StateQueryRequest.inStore(PLAIN_STORE)
                .withQuery(KeyQuery.<Bytes, byte[]>withKey(Bytes.wrap(k))).withPartitions(Set.of(partition))
                .requireActive()).getPartitionResults().get(partition);
        return r != null && r.isSuccess() ? r.getResult() : null;
    }

    private static void requireValue(Object answer) {
        if (answer == null || answer instanceof StateRead<?> s && !(s instanceof StateRead.Found<?>)) {
            throw new IllegalStateException("A read found no value: " + answer);
        }
    }

    private void awaitLoaded(CausalStreams parsley, KafkaStreams plain, CausalToken everything) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        for (int k = 0; k < options.keys; k++) {
            while (!(parsley.read(STAGE, key(k), everything, Duration.ofSeconds(30)) instanceof StateRead.Found<?>)
                    || plainRead(plain, key(k)) == null) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Key " + key(k) + " was not loaded in 5 minutes");
                }
                Thread.onSpinWait();
            }
        }
    }

    private static String key(int k) {
        return "customer-" + k;
    }

    private static double micros(long[] nanos, double quantile) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, (int) (quantile * sorted.length))] / 1000.0;
    }

    private KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0),
                new StringSerializer(), new StringSerializer());
    }

    /** Plain Kafka Streams: the same count per key in a cached, logged store, and the same output per record. */
    private static Topology plainTopology(String in, String out) {
        Topology t = new Topology();
        t.addSource("in", new ByteArrayDeserializer(), new ByteArrayDeserializer(), in);
        t.addProcessor("count", () -> new Processor<byte[], byte[], byte[], byte[]>() {
            private KeyValueStore<Bytes, byte[]> store;
            private ProcessorContext<byte[], byte[]> context;

            @Override
            public void init(ProcessorContext<byte[], byte[]> context) {
                this.context = context;
                this.store = context.getStateStore(PLAIN_STORE);
            }

            @Override
            public void process(Record<byte[], byte[]> record) {
                Bytes k = Bytes.wrap(record.key());
                byte[] old = store.get(k);
                long n = old == null ? 0 : Serdes.Long().deserializer().deserialize(null, old);
                store.put(k, Serdes.Long().serializer().serialize(null, n + 1));
                context.forward(record);
            }
        }, "in");
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(PLAIN_STORE), Serdes.Bytes(),
                Serdes.ByteArray()).withCachingEnabled(), "count");
        t.addSink("out", out, new ByteArraySerializer(), new ByteArraySerializer(), "count");
        return t;
    }

    /** A read-committed consumer of the fold's output, noting when each marker arrived. */
    private final class OutputWatch implements AutoCloseable {

        private final Map<String, Long> arrived = new ConcurrentHashMap<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        OutputWatch(String topic) {
            KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrap,
                    ConsumerConfig.GROUP_ID_CONFIG, "reads-watch-" + nonce,
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(),
                    new StringDeserializer());
            consumer.subscribe(List.of(topic));
            thread = new Thread(() -> {
                try (consumer) {
                    while (running.get()) {
                        for (ConsumerRecord<String, String> rec : consumer.poll(Duration.ofMillis(5))) {
                            arrived.put(rec.value(), System.nanoTime());
                        }
                    }
                }
            }, "reads-output-watch");
            thread.setDaemon(true);
            thread.start();
        }

        /** When {@code marker} arrived, waiting for it. */
        long await(String marker) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            Long at;
            while ((at = arrived.get(marker)) == null) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Output " + marker + " did not arrive in 60 s");
                }
                Thread.onSpinWait();
            }
            return at;
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(10_000);
        }
    }
}
