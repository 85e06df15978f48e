package io.github.tobyjamesclements.parsley;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.awaitility.Awaitility;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * One in-JVM KRaft broker shared by every broker test of a JVM, configured for transactions on a
 * single node, plus the small client helpers those tests share. Tests create uniquely named
 * topics, so they never see each other's records.
 *
 * <p>With {@code -Dparsley.it.bootstrap=host:port} the tests use that broker instead and start none:
 * the compatibility matrix (compat/matrix.sh, docs/compatibility.md) runs them against standalone
 * brokers of other Kafka versions. Names then also carry this JVM's process id, since the test
 * JVMs of one build share that broker.
 */
final class TestKafka {

    private static final String EXTERNAL = System.getProperty("parsley.it.bootstrap", "").strip();
    private static final String JVM = EXTERNAL.isEmpty() ? "" : "-" + ProcessHandle.current().pid();
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static EmbeddedKafkaKraftBroker broker;
    private static Admin admin;

    private TestKafka() {
    }

    static synchronized String bootstrap() {
        if (!EXTERNAL.isEmpty()) {
            return EXTERNAL;
        }
        if (broker == null) {
            EmbeddedKafkaKraftBroker b = new EmbeddedKafkaKraftBroker(1, 1);
            b.brokerProperties(Map.of(
                    "transaction.state.log.replication.factor", "1",
                    "transaction.state.log.min.isr", "1",
                    "transaction.state.log.num.partitions", "4",
                    "offsets.topic.num.partitions", "4",
                    "group.initial.rebalance.delay.ms", "0",
                    "log.retention.check.interval.ms", "1000"));
            b.afterPropertiesSet();
            broker = b;
            Runtime.getRuntime().addShutdownHook(new Thread(b::destroy));
        }
        return broker.getBrokersAsString();
    }

    static synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
        }
        return admin;
    }

    /** A name unique in this JVM (and on an external broker), usable as a topic or application id. */
    static String unique(String prefix) {
        return prefix + JVM + "-" + SEQUENCE.incrementAndGet();
    }

    static void createTopic(String name, int partitions) {
        createTopic(name, partitions, Map.of());
    }

    static void createTopic(String name, int partitions, Map<String, String> configs) {
        try {
            admin().createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs))).all()
                    .get(30, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot create topic " + name, e);
        }
        // createTopics completes before every broker-side metadata view knows the topic.
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).ignoreExceptions()
                .until(() -> admin().describeTopics(List.of(name)).allTopicNames().get(5, TimeUnit.SECONDS)
                        .get(name).partitions().size() == partitions);
    }

    static Properties streamsProps(String applicationId, Path stateDir) {
        return streamsProps(bootstrap(), applicationId, stateDir);
    }

    /** The broker tests' Kafka Streams settings against any broker. */
    static Properties streamsProps(String bootstrap, String applicationId, Path stateDir) {
        Properties p = new Properties();
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6_000);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1_000);
        return p;
    }

    static KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
                new StringSerializer(), new StringSerializer());
    }

    static KafkaProducer<String, String> transactionalProducer() {
        KafkaProducer<String, String> p = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap(), ProducerConfig.TRANSACTIONAL_ID_CONFIG, unique("tx"),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer());
        p.initTransactions();
        return p;
    }

    /** Reads, read-committed, until {@code count} records arrived on the topic, or fails after the timeout. */
    static List<ConsumerRecord<String, String>> readCommitted(String topic, int count, Duration timeout) {
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        Map<String, Object> props = consumerProps();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> tps = c.partitionsFor(topic).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Awaitility.await().atMost(timeout).pollInterval(Duration.ofMillis(1)).until(() -> {
                c.poll(Duration.ofMillis(100)).forEach(out::add);
                return out.size() >= count;
            });
        }
        return out;
    }

    /** Everything committed on the topic now (reads to the end offsets). */
    static List<ConsumerRecord<byte[], byte[]>> readAllBytes(String topic) {
        return readAllBytes(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()), topic);
    }

    /** {@link #readAllBytes(String)} with other client settings (another broker, credentials). */
    static List<ConsumerRecord<byte[], byte[]>> readAllBytes(Map<String, Object> client, String topic) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        Map<String, Object> props = consumerProps();
        props.putAll(client);
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> tps = c.partitionsFor(topic).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> ends = c.endOffsets(tps);
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(1)).until(() -> {
                c.poll(Duration.ofMillis(100)).forEach(out::add);
                return tps.stream().allMatch(tp -> c.position(tp) >= ends.get(tp));
            });
        }
        return out;
    }

    /** Everything committed on the topic now, as strings, in offset order per partition. */
    static List<ConsumerRecord<String, String>> readAll(String topic) {
        return readAll(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()), topic);
    }

    /** {@link #readAll(String)} with other client settings (another broker, credentials). */
    static List<ConsumerRecord<String, String>> readAll(Map<String, Object> client, String topic) {
        StringDeserializer d = new StringDeserializer();
        return readAllBytes(client, topic).stream().map(r -> new ConsumerRecord<>(r.topic(), r.partition(), r.offset(),
                r.key() == null ? null : d.deserialize(topic, r.key()),
                r.value() == null ? null : d.deserialize(topic, r.value()))).toList();
    }

    /** Read-committed consumer settings without a broker: callers add the bootstrap servers. */
    private static Map<String, Object> consumerProps() {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return p;
    }

    /** Advances the log start of one partition to {@code offset} (records below it are deleted). */
    static void deleteRecordsBefore(String topic, int partition, long offset) {
        try {
            admin().deleteRecords(Map.of(new TopicPartition(topic, partition), RecordsToDelete.beforeOffset(offset)))
                    .all().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot delete records of " + topic + "-" + partition, e);
        }
    }

    /** The committed (read-uncommitted high watermark) end offset of one partition. */
    static long endOffset(String topic, int partition) {
        TopicPartition tp = new TopicPartition(topic, partition);
        try {
            return admin().listOffsets(Map.of(tp, OffsetSpec.latest())).all().get(30, TimeUnit.SECONDS).get(tp)
                    .offset();
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot list the end offset of " + tp, e);
        }
    }

    /** The sum over this instance's tasks of one {@code vc-metrics} metric; empty while none is registered. */
    static OptionalDouble vcMetric(CausalStreams streams, String name) {
        List<Double> values = streams.metrics().entrySet().stream()
                .filter(e -> e.getKey().group().equals(MetricNames.GROUP) && e.getKey().name().equals(name)
                        && !e.getKey().tags().containsKey("topic"))
                .map(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .toList();
        return values.isEmpty() ? OptionalDouble.empty()
                : OptionalDouble.of(values.stream().mapToDouble(Double::doubleValue).sum());
    }

    /** The first throwable of {@code type} in the cause chain, if any. */
    static <T extends Throwable> Optional<T> causeOf(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return Optional.of(type.cast(c));
            }
        }
        return Optional.empty();
    }

    /** Installs a handler that records the first uncaught exception and shuts the client down. */
    static AtomicReference<Throwable> captureFailure(CausalStreams streams) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        streams.setUncaughtExceptionHandler(e -> {
            failure.compareAndSet(null, e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        return failure;
    }

    /** Waits until the client failed and stopped, and returns what failed it. */
    static Throwable awaitFailure(CausalStreams streams, AtomicReference<Throwable> failure) {
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                .until(() -> failure.get() != null && streams.state() == KafkaStreams.State.ERROR);
        return failure.get();
    }

    static void awaitRunning(CausalStreams streams) {
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                .until(() -> streams.state() == KafkaStreams.State.RUNNING);
    }
}
