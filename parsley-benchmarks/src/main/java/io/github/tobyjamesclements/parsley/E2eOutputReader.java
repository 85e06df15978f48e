package io.github.tobyjamesclements.parsley;

import java.time.Duration;
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
 * returned) and keeps, per phase, the latency of every record, the last receipt, duplicates and,
 * for order/payment pairs, payments read before their order (a causal-order violation; both go to
 * the same output partition). It also sizes Parsley's protocol headers on every output.
 */
final class E2eOutputReader implements AutoCloseable {

    /**
     * What the reader needs of one output value: the kind, phase, seq and send time of the input
     * that caused it, and for balance outputs the customer and the balance it reports (else null
     * and 0).
     */
    record Id(byte kind, int phase, int seq, long sendNanos, String customer, long balance) {
        /** The layout of {@link E2eWorkload#value}; null if the value is too short to carry it. */
        static Id ofBinary(byte[] v) {
            if (v == null || v.length < E2eWorkload.HEADER) {
                return null;
            }
            return new Id(E2eWorkload.kind(v), E2eWorkload.phase(v), E2eWorkload.seq(v), E2eWorkload.sendNanos(v),
                    null, 0);
        }
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private final Function<byte[], Id> ids;
    private final int[] sizes;
    private final Map<String, Long> lastBalance = new HashMap<>();
    private long firstReceipt;
    private long negativeBalances;
    private final long[][] latencies;
    private final boolean[][] seen;
    private final int[] counts;
    private final long[] lastReceipt;
    private final E2eHeaderSizes headers = new E2eHeaderSizes();
    private long duplicates;
    private long orderViolations;
    private long unexpected;
    private volatile boolean stop;
    private volatile Throwable failure;

    /**
     * @param sizes per phase, the number of records expected (pairs count two)
     */
    E2eOutputReader(String bootstrap, String topic, int partitions, int[] sizes) {
        this(bootstrap, topic, partitions, sizes, Id::ofBinary);
    }

    /**
     * @param sizes per phase, the number of records expected (pairs count two)
     * @param ids reads an output value; null or a throw counts it as unexpected
     */
    E2eOutputReader(String bootstrap, String topic, int partitions, int[] sizes, Function<byte[], Id> ids) {
        this.ids = ids;
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
        Id id;
        try {
            id = ids.apply(r.value());
        } catch (RuntimeException e) {
            id = null;
        }
        if (id == null) {
            unexpected++;
            return;
        }
        int phase = id.phase();
        int seq = id.seq();
        int slot = id.kind() == E2eWorkload.PLAIN ? seq : 2 * seq + (id.kind() == E2eWorkload.PAYMENT ? 1 : 0);
        if (id.kind() < 0 || phase < 0 || phase >= sizes.length || slot < 0 || slot >= sizes[phase]) {
            unexpected++;
            return;
        }
        if (seen[phase][slot]) {
            duplicates++;
            return;
        }
        if (id.kind() == E2eWorkload.PAYMENT && !seen[phase][slot - 1]) {
            orderViolations++;
        }
        seen[phase][slot] = true;
        latencies[phase][slot] = now - id.sendNanos();
        counts[phase]++;
        lastReceipt[phase] = now;
        firstReceipt = firstReceipt == 0 ? now : firstReceipt;
        if (id.customer() != null) {
            lastBalance.put(id.customer(), id.balance());
            negativeBalances += id.balance() < 0 ? 1 : 0;
        }
        sizeHeaders(r);
    }

    private void sizeHeaders(ConsumerRecord<byte[], byte[]> r) {
        long value = 0;
        long wire = 0;
        long clock = 0;
        boolean any = false;
        for (Header h : r.headers()) {
            String k = h.key();
            if (k.equals(CausalHeaders.CLOCK) || k.equals(CausalHeaders.SENDER) || k.equals(CausalHeaders.SEQ)) {
                any = true;
                int len = h.value() == null ? 0 : h.value().length;
                value += len;
                // Kafka's record header: varint key length, key, varint value length, value.
                wire += varintSize(k.length()) + k.length() + varintSize(len) + len;
                if (k.equals(CausalHeaders.CLOCK)) {
                    clock = len;
                    VectorClock decoded = ClockCodec.decode(h.value());
                    headers.offsetEntries += decoded.offsets().size();
                    headers.offsetTopics += decoded.offsets().keySet().stream().map(Channel::topicId).distinct().count();
                    headers.seqEntries += decoded.seqs().size();
                }
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

    /** When the first output of any phase was received ({@link System#nanoTime()}); 0 before. */
    synchronized long firstReceipt() {
        return firstReceipt;
    }

    /** Balance outputs that reported a negative balance: a payment applied before its order. */
    synchronized long negativeBalances() {
        return negativeBalances;
    }

    /** Customers whose last balance output is not 0 (every pair delivered leaves 0). */
    synchronized long nonZeroFinalBalances() {
        return lastBalance.values().stream().filter(b -> b != 0).count();
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

    synchronized E2eHeaderSizes headers() {
        return headers;
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.join(10_000);
    }
}
