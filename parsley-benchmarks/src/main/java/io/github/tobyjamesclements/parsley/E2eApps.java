package io.github.tobyjamesclements.parsley;

import io.github.tobyjamesclements.parsley.E2eJson.Balance;
import io.github.tobyjamesclements.parsley.E2eJson.Event;
import io.github.tobyjamesclements.parsley.E2eJson.Output;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.StreamPartitioner;
import org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier;
import org.apache.kafka.streams.state.Stores;

/**
 * The applications under test, plain Kafka Streams and Parsley, built with the same settings:
 * exactly_once_v2, a 100 ms commit interval, the options' stream threads per instance and
 * instances of one application id in this JVM, each with its own state directory
 * ({@code <stateDir>/i<n>}), and the options' producer compression and task idling.
 */
final class E2eApps {

    /** The value of {@code runningAt} once the application entered ERROR before RUNNING. */
    static final long FAILED = -1;

    /** A started-or-startable application of either kind, all its instances together. */
    interface App extends AutoCloseable {
        void start();

        /** Starts sampling holds now; null for the plain Streams baseline. */
        E2eHoldSampler holdSampler();

        /** The metrics of the first instance. */
        Map<MetricName, ? extends Metric> metrics();

        /** Parsley's {@code records-held} gauges summed over every task of every instance; 0 for plain Streams. */
        double held();

        @Override
        void close();
    }

    private final E2eOptions options;

    E2eApps(E2eOptions options) {
        this.options = options;
    }

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

    Properties streamsProps(String applicationId, Path stateDir) {
        Properties p = new Properties();
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrap);
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, options.threads);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), options.compression);
        if (options.taskIdleMs != null) {
            p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, options.taskIdleMs);
        }
        // As Parsley does: a closing instance leaves the group, so its tasks move at once (restore mode times it).
        p.put(StreamsConfig.mainConsumerPrefix("internal.leave.group.on.close"), true);
        return p;
    }

    /**
     * Plain Kafka Streams EOS copy: source, processor forwarding each record unchanged, sink. With
     * {@code storePuts > 0} (the {@code baseline-store} reference) the processor also writes that
     * many 16-byte values per record to a logged RocksDB store without caching: what Parsley's
     * protocol-store writes cost before its stores were cached.
     */
    App baseline(String id, String in, String out, Path stateDir, AtomicLong runningAt, int storePuts) {
        return plain(id, stateDir, runningAt, new DefaultKafkaClientSupplier(), () -> {
            Topology t = new Topology();
            t.addSource(AutoOffsetReset.earliest(), "source", new ByteArrayDeserializer(), new ByteArrayDeserializer(),
                    in);
            t.addProcessor("copy", () -> new E2eCopyProcessor(storePuts), "source");
            if (storePuts > 0) {
                t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(E2eCopyProcessor.STORE),
                        Serdes.Bytes(), Serdes.ByteArray()).withCachingDisabled(), "copy");
            }
            t.addSink("sink", out, new ByteArraySerializer(), new ByteArraySerializer(), "copy");
            return t;
        });
    }

    /**
     * The {@code floor} reference: the baseline's topology and settings plus what any causal stamp
     * costs Kafka Streams without Parsley's protocol: a {@code vc} header of
     * {@link E2eFloorProcessor#STAMP_BYTES} bytes on every output, Parsley's own sink partitioner
     * ({@link StampingDoor#partitioner}) and producer ({@link E2eFloorClients}) and a cached, logged key-value store attached to the
     * processor but not written per record.
     */
    App floor(String id, String in, String out, Path stateDir, AtomicLong runningAt, int partitions) {
        return plain(id, stateDir, runningAt, new E2eFloorClients(), () -> {
            Topology t = new Topology();
            t.addSource(AutoOffsetReset.earliest(), "source", new ByteArrayDeserializer(), new ByteArrayDeserializer(),
                    in);
            t.addProcessor("copy", E2eFloorProcessor::new, "source");
            t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(E2eFloorProcessor.STORE),
                    Serdes.Bytes(), Serdes.ByteArray()).withCachingEnabled(), "copy");
            t.addSink("sink", out, new ByteArraySerializer(), new ByteArraySerializer(),
                    StampingDoor.partitioner(out, partitions), "copy");
            return t;
        });
    }

    /**
     * The application of a single-source variant ({@code baseline}, {@code baseline-store},
     * {@code floor} or {@code parsley}) over {@code in} and {@code out}.
     */
    App copy(E2eVariant v, String id, String in, String out, Path stateDir, AtomicLong runningAt, int storePuts,
            int partitions) {
        return switch (v) {
            case BASELINE -> baseline(id, in, out, stateDir, runningAt, 0);
            case BASELINE_STORE -> baseline(id, in, out, stateDir, runningAt, storePuts);
            case FLOOR -> floor(id, in, out, stateDir, runningAt, partitions);
            case PARSLEY -> parsleyCopy(id, in, out, stateDir, runningAt);
            default -> throw new IllegalArgumentException("Not a single-source variant: " + v.label);
        };
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

    /**
     * The JSON variant on plain Kafka Streams: orders and payments parsed by a JSON serde into one
     * {@link E2eBalanceProcessor} with a logged, cached RocksDB store (as Parsley's fold store is),
     * JSON outputs.
     */
    App jsonBaseline(String id, String orders, String payments, String out, Path stateDir, AtomicLong runningAt) {
        return json(id, orders, payments, out, stateDir, runningAt, null, null);
    }

    /**
     * The {@code json-floor} reference: {@link #jsonBaseline} plus what a stamp of the JSON stage's size costs
     * Kafka Streams without Parsley's protocol: a constant {@code vc} header ({@code stamp}) on every output,
     * Parsley's sink partitioner and producer, inputs stamped as {@code json-parsley}'s (its task is stateful
     * already). A null {@code stamp} is {@code json-floor-bare}: all of that but the output header.
     */
    App jsonFloor(String id, String orders, String payments, String out, Path stateDir, AtomicLong runningAt,
            int partitions, byte[] stamp) {
        StreamPartitioner<byte[], byte[]> bytes = StampingDoor.partitioner(out, partitions);
        StreamPartitioner<String, Output> partitioner = (topic, key, value, count) -> bytes.partitions(topic,
                key.getBytes(StandardCharsets.UTF_8), null, count);
        return json(id, orders, payments, out, stateDir, runningAt, stamp, partitioner);
    }

    private App json(String id, String orders, String payments, String out, Path stateDir, AtomicLong runningAt,
            byte[] stamp, StreamPartitioner<String, Output> partitioner) {
        KafkaClientSupplier clients = partitioner == null ? new DefaultKafkaClientSupplier() : new E2eFloorClients();
        return plain(id, stateDir, runningAt, clients, () -> {
            Topology t = new Topology();
            Deserializer<Event> events = E2eJson.serde(Event.class).deserializer();
            t.addSource(AutoOffsetReset.earliest(), "orders", new StringDeserializer(), events, orders);
            t.addSource(AutoOffsetReset.earliest(), "payments", new StringDeserializer(), events, payments);
            t.addProcessor("balances", () -> new E2eBalanceProcessor(stamp), "orders", "payments");
            t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(E2eBalanceProcessor.STORE),
                    Serdes.String(), E2eJson.serde(Balance.class)).withCachingEnabled(), "balances");
            // a null partitioner is Kafka Streams' default, the plain baseline's
            t.addSink("sink", out, new StringSerializer(), E2eJson.serde(Output.class).serializer(), partitioner,
                    "balances");
            return t;
        });
    }

    /** The JSON variant as a Parsley stage: the same fold over orders and payments, per customer. */
    App jsonParsley(String id, String orders, String payments, String out, Path stateDir, AtomicLong runningAt) {
        Topic<String, Event> ord = Topic.of(orders, Codec.utf8(), E2eJson.codec(Event.class));
        Topic<String, Event> pay = Topic.of(payments, Codec.utf8(), E2eJson.codec(Event.class));
        Topic<String, Output> o = Topic.of(out, Codec.utf8(), E2eJson.codec(Output.class));
        Fold<Balance, String, Event> fold = (b, m) -> {
            Balance next = b.apply(m.value());
            return Step.of(next, o.send(m.key(), Output.of(next, m.value())));
        };
        Stage balances = Stage.named("balances").state(E2eJson.codec(Balance.class), () -> Balance.EMPTY)
                .on(ord, fold).on(pay, fold).into(o).build();
        return parsley(id, stateDir, runningAt, balances);
    }

    /**
     * The restore mode's plain Streams application: every phase-0 record is stored under its own
     * key in a logged, cached RocksDB store (as Parsley's protocol store is), every later record is
     * forwarded.
     */
    App storeAll(String id, String in, String out, Path stateDir, AtomicLong runningAt) {
        return plain(id, stateDir, runningAt, new DefaultKafkaClientSupplier(), () -> {
            Topology t = new Topology();
            t.addSource(AutoOffsetReset.earliest(), "source", new ByteArrayDeserializer(), new ByteArrayDeserializer(),
                    in);
            t.addProcessor("store", E2eStoreAllProcessor::new, "source");
            t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(E2eStoreAllProcessor.STORE),
                    Serdes.Bytes(), Serdes.ByteArray()).withCachingEnabled(), "store");
            t.addSink("sink", out, new ByteArraySerializer(), new ByteArraySerializer(), "store");
            return t;
        });
    }

    /** Plain Kafka Streams instances of {@code topology} (built once per instance). */
    App plain(String id, Path stateDir, AtomicLong runningAt, KafkaClientSupplier clients, Supplier<Topology> topology) {
        List<KafkaStreams> all = new ArrayList<>();
        for (int n = 0; n < options.instances; n++) {
            KafkaStreams streams = new KafkaStreams(topology.get(), streamsProps(id, stateDir.resolve("i" + n)), clients);
            streams.setStateListener(runningListener(runningAt));
            all.add(streams);
        }
        return new Instances<>(all, KafkaStreams::start, KafkaStreams::metrics, s -> s.close(Duration.ofSeconds(30)),
                null, s -> 0);
    }

    /** Parsley instances of one application of {@code stages}. */
    App parsley(String id, Path stateDir, AtomicLong runningAt, Stage... stages) {
        List<CausalStreams> all = new ArrayList<>();
        for (int n = 0; n < options.instances; n++) {
            CausalStreams streams = Parsley.named(id, stages).streams(streamsProps(id, stateDir.resolve("i" + n)));
            streams.setStateListener(runningListener(runningAt));
            all.add(streams);
        }
        return new Instances<>(all, CausalStreams::start, CausalStreams::metrics,
                s -> s.close(Duration.ofSeconds(30)), () -> new E2eHoldSampler(all), E2eHoldSampler::held);
    }

    /** The instances of one application, started and closed together. */
    private record Instances<S>(List<S> all, Consumer<S> starter, Function<S, Map<MetricName, ? extends Metric>> metricsOf,
            Consumer<S> closer, Supplier<E2eHoldSampler> sampler, ToDoubleFunction<S> heldOf) implements App {
        @Override
        public void start() {
            all.forEach(starter);
        }

        @Override
        public E2eHoldSampler holdSampler() {
            return sampler == null ? null : sampler.get();
        }

        @Override
        public Map<MetricName, ? extends Metric> metrics() {
            return metricsOf.apply(all.get(0));
        }

        @Override
        public double held() {
            return all.stream().mapToDouble(heldOf).sum();
        }

        @Override
        public void close() {
            // Together, so that no instance takes over the tasks of one closing before it.
            all.parallelStream().forEach(closer);
        }
    }
}
