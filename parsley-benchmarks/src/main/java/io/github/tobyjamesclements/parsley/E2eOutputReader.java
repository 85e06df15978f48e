package io.github.tobyjamesclements.parsley;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The output side of the end-to-end benchmark: a {@code read_committed} consumer thread over the
 * output topic that stamps each record's receipt ({@link System#nanoTime()} when its poll
 * returned) and counts it in an {@link E2eOutputTally} (latencies, duplicates, order violations).
 * It also sizes Parsley's protocol headers on every output, without decoding them while the run
 * is measured (see {@link E2eHeaderSizes}): decoding every stamp cost this thread about half as
 * much again as parsing a JSON output, on the cores the measured application shares, and the
 * plain application's reader had no such work.
 */
final class E2eOutputReader implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private final E2eOutputTally tally;
    private final E2eHeaderSizes headers = new E2eHeaderSizes();
    private final List<TopicPartition> partitions = new ArrayList<>();
    private volatile boolean stop;
    private volatile Throwable failure;
    /** Set by {@link #awaitEnd}: the reader thread then publishes its positions after every poll. */
    private volatile boolean trackPositions;
    private volatile Map<TopicPartition, Long> positions = Map.of();

    /**
     * @param sizes per phase, the number of records expected (pairs count two)
     */
    E2eOutputReader(String bootstrap, String topic, int partitions, int[] sizes) {
        this(bootstrap, topic, partitions, sizes, E2eOutputTally.Id::ofBinary);
    }

    /**
     * @param sizes per phase, the number of records expected (pairs count two)
     * @param ids reads an output value; null or a throw counts it as unexpected
     */
    E2eOutputReader(String bootstrap, String topic, int partitions, int[] sizes,
            Function<byte[], E2eOutputTally.Id> ids) {
        this.tally = new E2eOutputTally(sizes, ids);
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        for (int p = 0; p < partitions; p++) {
            this.partitions.add(new TopicPartition(topic, p));
        }
        consumer.assign(this.partitions);
        consumer.seekToBeginning(this.partitions);
        thread = new Thread(this::run, "e2e-reader-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (!stop) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(50));
                long now = System.nanoTime();
                if (!records.isEmpty()) {
                    synchronized (this) {
                        for (ConsumerRecord<byte[], byte[]> r : records) {
                            if (tally.accept(r.value(), now)) {
                                sizeHeaders(r);
                            }
                        }
                    }
                }
                if (trackPositions) {
                    Map<TopicPartition, Long> at = new HashMap<>();
                    partitions.forEach(tp -> at.put(tp, consumer.position(tp)));
                    positions = at;
                }
            }
        } catch (Throwable t) {
            failure = t;
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private void sizeHeaders(ConsumerRecord<byte[], byte[]> r) {
        long value = 0;
        long wire = 0;
        byte[] stamp = null;
        for (Header h : r.headers()) {
            String k = h.key();
            if (k.equals(CausalHeaders.CLOCK)) {
                stamp = h.value() == null ? new byte[0] : h.value();
                value += stamp.length;
                // Kafka's record header: varint key length, key, varint value length, value.
                wire += varintSize(k.length()) + k.length() + varintSize(stamp.length) + stamp.length;
            }
        }
        if (stamp == null) {
            return;
        }
        headers.count(stamp);
        headers.valueSum += value;
        headers.valueMax = Math.max(headers.valueMax, value);
        headers.valueMin = Math.min(headers.valueMin, value);
        headers.clockSum += stamp.length;
        headers.clockMax = Math.max(headers.clockMax, stamp.length);
        headers.wireSum += wire;
        headers.wireMax = Math.max(headers.wireMax, wire);
    }

    private static int varintSize(int v) {
        // Zig-zag varint as in Kafka's record format.
        long z = ((long) v << 1) ^ ((long) v >> 31);
        int n = 1;
        while ((z & ~0x7FL) != 0) {
            z >>>= 7;
            n++;
        }
        return n;
    }

    /** The reader thread's CPU time so far, in nanoseconds: the harness's own share of its JVM's CPU. */
    long cpuNanos() {
        return ManagementFactory.getThreadMXBean().getThreadCpuTime(thread.getId());
    }

    /** Waits until every record of the phase arrived; false on timeout or reader failure. */
    boolean await(int phase, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (failure != null) {
                throw new IllegalStateException("Output reader failed", failure);
            }
            synchronized (this) {
                if (tally.complete(phase)) {
                    return true;
                }
            }
            Thread.sleep(5);
        }
        return false;
    }

    /**
     * Waits until the reader has read every partition up to {@code ends} (offsets it reads to: for
     * a read_committed reader after its writers closed, the end offsets), so that what it counted is
     * all the topic holds, late duplicates included; false on timeout.
     */
    boolean awaitEnd(Map<TopicPartition, Long> ends, Duration timeout) throws InterruptedException {
        trackPositions = true;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (failure != null) {
                throw new IllegalStateException("Output reader failed", failure);
            }
            Map<TopicPartition, Long> at = positions;
            if (ends.entrySet().stream().allMatch(e -> at.getOrDefault(e.getKey(), -1L) >= e.getValue())) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    synchronized int count(int phase) {
        return tally.count(phase);
    }

    synchronized long lastReceipt(int phase) {
        return tally.lastReceipt(phase);
    }

    /** The latencies (ns) of the phase's received records, unsorted. */
    synchronized long[] latencies(int phase) {
        return tally.latencies(phase);
    }

    /** When the first output of any phase was received ({@link System#nanoTime()}); 0 before. */
    synchronized long firstReceipt() {
        return tally.firstReceipt();
    }

    /** Balance outputs that reported a negative balance: a payment applied before its order. */
    synchronized long negativeBalances() {
        return tally.negativeBalances();
    }

    /** Customers whose last balance output is not 0 (every pair delivered leaves 0). */
    synchronized long nonZeroFinalBalances() {
        return tally.nonZeroFinalBalances();
    }

    synchronized long duplicates() {
        return tally.duplicates();
    }

    synchronized long orderViolations() {
        return tally.orderViolations();
    }

    synchronized long unexpected() {
        return tally.unexpected();
    }

    /** The header sizes so far; decodes the sampled stamps, so call it once the measured phases are over. */
    synchronized E2eHeaderSizes headers() {
        return headers.decodePending();
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.join(10_000);
    }
}
