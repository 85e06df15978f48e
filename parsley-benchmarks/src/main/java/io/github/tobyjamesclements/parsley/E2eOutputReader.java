package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * returned) and keeps, per phase, the latency of every record, the last receipt, duplicates and,
 * for order/payment pairs, payments read before their order (a causal-order violation; both go to
 * the same output partition). It also sizes Parsley's protocol headers on every output.
 */
final class E2eOutputReader implements AutoCloseable {

    /** Sizes of the {@code vc} header (clock and sender tag) of the outputs. */
    static final class HeaderSizes {
        long records;
        long valueSum;
        long valueMax;
        long valueMin = Long.MAX_VALUE;
        long clockSum;
        long clockMax;
        long wireSum;
        long wireMax;
        long offsetEntries;
        long seqEntries;
        long offsetTopics;

        double valueMean() {
            return mean(valueSum);
        }

        double clockMean() {
            return mean(clockSum);
        }

        double wireMean() {
            return mean(wireSum);
        }

        double offsetEntriesMean() {
            return mean(offsetEntries);
        }

        double offsetTopicsMean() {
            return mean(offsetTopics);
        }

        double seqEntriesMean() {
            return mean(seqEntries);
        }

        private double mean(long sum) {
            return records == 0 ? 0 : (double) sum / records;
        }
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private final int[] sizes;
    private final long[][] latencies;
    private final boolean[][] seen;
    private final int[] counts;
    private final long[] lastReceipt;
    private final HeaderSizes headers = new HeaderSizes();
    private long duplicates;
    private long orderViolations;
    private long unexpected;
    private volatile boolean stop;
    private volatile Throwable failure;

    /**
     * @param sizes per phase, the number of records expected (pairs count two)
     */
    E2eOutputReader(String bootstrap, String topic, int partitions, int[] sizes) {
        this.sizes = sizes.clone();
        this.latencies = new long[sizes.length][];
        this.seen = new boolean[sizes.length][];
        for (int p = 0; p < sizes.length; p++) {
            latencies[p] = new long[sizes[p]];
            seen[p] = new boolean[sizes[p]];
        }
        this.counts = new int[sizes.length];
        this.lastReceipt = new long[sizes.length];
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> tps = new java.util.ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            tps.add(new TopicPartition(topic, p));
        }
        consumer.assign(tps);
        consumer.seekToBeginning(tps);
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
                            accept(r, now);
                        }
                    }
                }
            }
        } catch (Throwable t) {
            failure = t;
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private void accept(ConsumerRecord<byte[], byte[]> r, long now) {
        byte[] v = r.value();
        if (v == null || v.length < E2eWorkload.HEADER) {
            unexpected++;
            return;
        }
        int phase = E2eWorkload.phase(v);
        byte kind = E2eWorkload.kind(v);
        int seq = E2eWorkload.seq(v);
        int slot = kind == E2eWorkload.PLAIN ? seq : 2 * seq + (kind == E2eWorkload.PAYMENT ? 1 : 0);
        if (phase < 0 || phase >= sizes.length || slot < 0 || slot >= sizes[phase]) {
            unexpected++;
            return;
        }
        if (seen[phase][slot]) {
            duplicates++;
            return;
        }
        if (kind == E2eWorkload.PAYMENT && !seen[phase][slot - 1]) {
            orderViolations++;
        }
        seen[phase][slot] = true;
        latencies[phase][slot] = now - E2eWorkload.sendNanos(v);
        counts[phase]++;
        lastReceipt[phase] = now;
        sizeHeaders(r);
    }

    private void sizeHeaders(ConsumerRecord<byte[], byte[]> r) {
        long value = 0;
        long wire = 0;
        long clock = 0;
        boolean any = false;
        for (Header h : r.headers()) {
            String k = h.key();
            if (k.equals(CausalHeaders.CLOCK)) {
                any = true;
                int len = h.value() == null ? 0 : h.value().length;
                value += len;
                // Kafka's record header: varint key length, key, varint value length, value.
                wire += varintSize(k.length()) + k.length() + varintSize(len) + len;
                clock = len;
                VectorClock decoded = ClockCodec.decodeStamp(h.value()).clock();
                headers.offsetEntries += decoded.offsets().size();
                headers.offsetTopics += decoded.offsets().keySet().stream().map(Channel::topicId).distinct().count();
                headers.seqEntries += decoded.seqs().size();
            }
        }
        if (!any) {
            return;
        }
        headers.records++;
        headers.valueSum += value;
        headers.valueMax = Math.max(headers.valueMax, value);
        headers.valueMin = Math.min(headers.valueMin, value);
        headers.clockSum += clock;
        headers.clockMax = Math.max(headers.clockMax, clock);
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

    /** Waits until every record of the phase arrived; false on timeout or reader failure. */
    boolean await(int phase, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (failure != null) {
                throw new IllegalStateException("Output reader failed", failure);
            }
            synchronized (this) {
                if (counts[phase] >= sizes[phase]) {
                    return true;
                }
            }
            Thread.sleep(5);
        }
        return false;
    }

    synchronized int count(int phase) {
        return counts[phase];
    }

    synchronized long lastReceipt(int phase) {
        return lastReceipt[phase];
    }

    /** The latencies (ns) of the phase's received records, unsorted. */
    synchronized long[] latencies(int phase) {
        long[] out = new long[counts[phase]];
        int i = 0;
        for (int s = 0; s < sizes[phase]; s++) {
            if (seen[phase][s]) {
                out[i++] = latencies[phase][s];
            }
        }
        return out;
    }

    synchronized long duplicates() {
        return duplicates;
    }

    synchronized long orderViolations() {
        return orderViolations;
    }

    synchronized long unexpected() {
        return unexpected;
    }

    synchronized HeaderSizes headers() {
        return headers;
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.join(10_000);
    }
}
