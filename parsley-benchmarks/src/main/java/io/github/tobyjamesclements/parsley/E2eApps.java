package io.github.tobyjamesclements.parsley;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The applications under test, plain Kafka Streams and Parsley, built with the same settings:
 * exactly_once_v2, a 100 ms commit interval and one stream thread.
 */
final class E2eApps {

    /** The value of {@code runningAt} once the application entered ERROR before RUNNING. */
    static final long FAILED = -1;

    /** A started-or-startable application of either kind. */
    interface App extends AutoCloseable {
        void start();

        /** Starts sampling holds now; null for the plain Streams baseline. */
        E2eHoldSampler holdSampler();

        Map<MetricName, ? extends Metric> metrics();

        @Override
        void close();
    }

    private final String bootstrap;

    E2eApps(String bootstrap) {
        this.bootstrap = bootstrap;
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
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
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
        t.addProcessor("copy", () -> new E2eCopyProcessor(storePuts), "source");
        if (storePuts > 0) {
            t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(E2eCopyProcessor.STORE),
                    Serdes.Bytes(), Serdes.ByteArray()).withCachingDisabled(), "copy");
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
            public E2eHoldSampler holdSampler() {
                return null;
            }

            @Override
            public Map<MetricName, ? extends Metric> metrics() {
                return streams.metrics();
            }

            @Override
            public void close() {
                streams.close(Duration.ofSeconds(30));
            }
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

    private App parsley(String id, Path stateDir, AtomicLong runningAt, Stage stage) {
        CausalStreams streams = Parsley.named(id, stage).streams(streamsProps(id, stateDir));
        streams.setStateListener(runningListener(runningAt));
        return new App() {
            @Override
            public void start() {
                streams.start();
            }

            @Override
            public E2eHoldSampler holdSampler() {
                return new E2eHoldSampler(streams);
            }

            @Override
            public Map<MetricName, ? extends Metric> metrics() {
                return streams.metrics();
            }

            @Override
            public void close() {
                streams.close(Duration.ofSeconds(30));
            }
        };
    }
}
