package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.EndToEndBenchmark.log;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The header-cost mode ({@code --header-cost}): what Kafka alone spends on one record header of a
 * given size, with no Streams application in the way. Per round and size, in a rotating order, on a
 * fresh topic: one transactional producer sends the records as fast as it can, each with one
 * {@code vc} header of that many bytes (none for size 0), committing every 100 ms as a Streams
 * application does, while one {@code read_committed} consumer reads them back and reads each header,
 * as a downstream stage would. It reports the CPU per record of the producer's and the consumer's
 * threads, of the harness JVM (both clients and their network threads) and of the broker, the
 * producer's requests and the consumer's fetches per record, and each size's ratios over the first
 * size in the same round. A phase whose consumer reads other than every record with its header, or
 * a header of another size, fails the run.
 *
 * <p>Kafka does not look inside a header's value, but a compressing producer does: each value is
 * a fixed pseudo-random pattern whose last four bytes carry the record's sequence number, as a
 * stamp's topic and sender ids repeat from record to record while its offsets and sequence move.
 * Each record gets its own array, as each of a stage's stamps does.
 */
final class E2eHeaderCost {

    /**
     * One phase: {@code records} sent and read back with headers of {@code size} bytes; requests and
     * fetches per 1,000 records, the producer's (produce and transaction requests) and the consumer's.
     */
    record Result(int size, int round, double rate, double producerUs, double consumerUs, double harnessUs,
            double brokerUs, double requestsPerK, double fetchesPerK) {
        double machineUs() {
            return harnessUs + brokerUs;
        }
    }

    /** What the consumer thread counted, spent and fetched. */
    private record Read(long records, long headerBytes, long cpuNanos, double fetches) {
    }

    private static final long COMMIT_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final E2eOptions options;
    private final Admin admin;
    private final E2eTopics topics;
    private final E2eWorkload workload;
    private final String nonce;

    /** {@code workload} supplies the producer, keys and values: the binary records of the copies. */
    E2eHeaderCost(E2eOptions options, Admin admin, E2eTopics topics, E2eWorkload workload, String nonce) {
        this.options = options;
        this.admin = admin;
        this.topics = topics;
        this.workload = workload;
        this.nonce = nonce;
    }

    /** A discarded warm-up phase per size, then {@code options.rounds} rounds of every size. */
    List<Result> runAll(int warmup) throws Exception {
        List<Result> results = new ArrayList<>();
        ExecutorService reader = Executors.newSingleThreadExecutor(r -> new Thread(r, "e2e-header-reader"));
        try (KafkaProducer<byte[], byte[]> producer = workload.transactionalProducer("e2e-" + nonce + "-hdr-tx");
                KafkaConsumer<byte[], byte[]> consumer = reader.submit(this::consumer).get()) {
            List<Integer> order = new ArrayList<>(options.headerSizes);
            for (int size : order) {
                log("header-cost warm-up %d bytes: %s", size, phase(producer, consumer, reader, size, 0, warmup));
            }
            for (int round = 1; round <= options.rounds; round++) {
                for (int size : order) {
                    Result r = phase(producer, consumer, reader, size, round, options.records);
                    results.add(r);
                    log("header-cost round %d, %d bytes: %s", round, size, r);
                }
                order.add(order.remove(0));
            }
        } finally {
            reader.shutdownNow();
        }
        return results;
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    private Result phase(KafkaProducer<byte[], byte[]> producer, KafkaConsumer<byte[], byte[]> consumer,
            ExecutorService reader, int size, int round, int n) throws Exception {
        String topic = "e2e-" + nonce + "-hdr-" + size + "-r" + round;
        topics.create(topic);
        List<TopicPartition> partitions = IntStream.range(0, options.partitions)
                .mapToObj(p -> new TopicPartition(topic, p)).toList();
        reader.submit(() -> consumer.assign(partitions)).get();
        byte[] header = new byte[size];
        new Random(size).nextBytes(header);
        long broker0 = E2eLiveCost.brokerCpuNanos(options.brokerPid);
        long harness0 = E2eLiveCost.harnessCpuNanos();
        long start = System.nanoTime();
        long producer0 = THREADS.getCurrentThreadCpuTime();
        double requests0 = E2eLiveCost.total(producer.metrics(), "producer-metrics", "request-total");
        Future<Read> read = reader.submit(() -> read(consumer, n));
        send(producer, topic, header, n);
        long producerNanos = THREADS.getCurrentThreadCpuTime() - producer0;
        double requests = E2eLiveCost.total(producer.metrics(), "producer-metrics", "request-total") - requests0;
        // the reader stops at its own deadline; this one only guards against a reader that never returns
        Read got = read.get(options.timeoutSeconds + 30, TimeUnit.SECONDS);
        long wall = System.nanoTime() - start;
        double brokerUs = E2eLiveCost.brokerUsSince(broker0, options.brokerPid, n);
        double harnessUs = (E2eLiveCost.harnessCpuNanos() - harness0) / 1e3 / n;
        admin.deleteTopics(List.of(topic)).all().get(60, TimeUnit.SECONDS);
        if (got.records() != n || got.headerBytes() != (long) n * size) {
            throw new IllegalStateException("Header-cost phase of " + size + "-byte headers on " + topic + " read "
                    + got.records() + " records carrying " + got.headerBytes() + " header bytes; expected " + n
                    + " carrying " + (long) n * size + " (a lost, duplicated or altered record)");
        }
        return new Result(size, round, n * 1e9 / wall, producerNanos / 1e3 / n, got.cpuNanos() / 1e3 / n,
                harnessUs, brokerUs, requests * 1e3 / n, got.fetches() * 1e3 / n);
    }

    private void send(KafkaProducer<byte[], byte[]> producer, String topic, byte[] header, int n) {
        producer.beginTransaction();
        long committed = System.nanoTime();
        for (int seq = 0; seq < n; seq++) {
            ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, seq % options.partitions,
                    workload.key(seq), workload.value(E2eWorkload.PLAIN, 0, seq));
            if (header.length > 0) {
                r.headers().add(CausalHeaders.CLOCK, stamp(header, seq));
            }
            producer.send(r);
            if (System.nanoTime() - committed >= COMMIT_EVERY_NANOS) {
                producer.commitTransaction();
                producer.beginTransaction();
                committed = System.nanoTime();
            }
        }
        producer.commitTransaction();
    }

    /** A copy of {@code pattern} whose last bytes (up to four) are those of {@code seq}, big-endian. */
    static byte[] stamp(byte[] pattern, int seq) {
        byte[] value = pattern.clone();
        for (int i = 1; i <= Math.min(4, value.length); i++) {
            value[value.length - i] = (byte) (seq >>> (8 * (i - 1)));
        }
        return value;
    }

    /** Runs on the reader thread: every record of the assigned partitions from the start, each header read. */
    private Read read(KafkaConsumer<byte[], byte[]> consumer, int n) {
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        double fetches0 = E2eLiveCost.total(consumer.metrics(), "consumer-fetch-manager-metrics", "fetch-total");
        consumer.seekToBeginning(consumer.assignment());
        long records = 0;
        long headerBytes = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(options.timeoutSeconds);
        while (records < n && System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                Header h = r.headers().lastHeader(CausalHeaders.CLOCK);
                headerBytes += h == null ? 0 : h.value().length;
                records++;
            }
        }
        double fetches = E2eLiveCost.total(consumer.metrics(), "consumer-fetch-manager-metrics", "fetch-total")
                - fetches0;
        return new Read(records, headerBytes, THREADS.getCurrentThreadCpuTime() - cpu0, fetches);
    }
}
