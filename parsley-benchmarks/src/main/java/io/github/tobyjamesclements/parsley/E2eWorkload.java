package io.github.tobyjamesclements.parsley;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The input side of the end-to-end benchmark: the record layout and the transactional producers.
 *
 * <p>Every value is {@code valueBytes} long and starts with {@code kind (1 byte), phase (1),
 * seq (4), sendNanos (8)}, zero-padded. {@code sendNanos} is {@link System#nanoTime()} just before
 * {@code send}; producer and output reader share the JVM, so receipt minus send is the end-to-end
 * latency (producer send to read_committed receipt of the output, transaction commits included).
 * Keys are {@code key-00000}..: record {@code seq} (or pair {@code seq}) gets key {@code seq % keys},
 * so both topics of a pair and every output are co-partitioned by the default partitioner.
 */
final class E2eWorkload {

    static final byte PLAIN = 0;
    static final byte ORDER = 1;
    static final byte PAYMENT = 2;
    static final int HEADER = 14;

    private final String bootstrap;
    private final int keys;
    private final int valueBytes;
    private final byte[][] keyBytes;
    private final boolean json;
    private final String compression;

    /** Binary records, uncompressed producers: what the harness's unit tests need. */
    E2eWorkload(String bootstrap, int keys, int valueBytes) {
        this(bootstrap, keys, valueBytes, false, "none");
    }

    /** The options' workload; with {@code json}, orders and payments are {@link E2eJson.Event}s. */
    E2eWorkload(E2eOptions options, boolean json) {
        this(options.bootstrap, options.keys, options.valueBytes, json, options.compression);
    }

    private E2eWorkload(String bootstrap, int keys, int valueBytes, boolean json, String compression) {
        this.json = json;
        this.compression = compression;
        if (valueBytes < HEADER) {
            throw new IllegalArgumentException("valueBytes must be >= " + HEADER);
        }
        this.bootstrap = bootstrap;
        this.keys = keys;
        this.valueBytes = valueBytes;
        this.keyBytes = new byte[keys][];
        for (int k = 0; k < keys; k++) {
            keyBytes[k] = String.format("key-%05d", k).getBytes(StandardCharsets.UTF_8);
        }
    }

    byte[] key(int seq) {
        return keyBytes[seq % keys];
    }

    byte[] value(byte kind, int phase, int seq) {
        if (json && kind != PLAIN) {
            return E2eJson.event(kind == PAYMENT, new String(key(seq), StandardCharsets.UTF_8), phase, seq);
        }
        byte[] v = new byte[valueBytes];
        ByteBuffer.wrap(v).put(kind).put((byte) phase).putInt(seq).putLong(System.nanoTime());
        return v;
    }

    static byte kind(byte[] value) {
        return value[0];
    }

    static int phase(byte[] value) {
        return value[1];
    }

    static int seq(byte[] value) {
        return ByteBuffer.wrap(value, 2, 4).getInt();
    }

    static long sendNanos(byte[] value) {
        return ByteBuffer.wrap(value, 6, 8).getLong();
    }

    KafkaProducer<byte[], byte[]> transactionalProducer(String transactionalId) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                new ByteArraySerializer());
        producer.initTransactions();
        return producer;
    }

    /** Sends {@code n} plain records as fast as possible, {@code perTransaction} per transaction. */
    void bulk(KafkaProducer<byte[], byte[]> producer, String topic, int phase, int n, int perTransaction) {
        bulk(producer, topic, phase, n, perTransaction, null);
    }

    /** As {@link #bulk(KafkaProducer, String, int, int, int)}, every record stamped by {@code clock} if not null. */
    void bulk(KafkaProducer<byte[], byte[]> producer, String topic, int phase, int n, int perTransaction,
            CausalClock clock) {
        for (int i = 0; i < n; i += perTransaction) {
            producer.beginTransaction();
            for (int s = i; s < Math.min(n, i + perTransaction); s++) {
                ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, key(s), value(PLAIN, phase, s));
                if (clock != null) {
                    clock.stamp(r.headers());
                }
                producer.send(r);
            }
            producer.commitTransaction();
        }
    }

    /** One plain record of {@code phase} per partition, seq = partition, in one transaction. */
    void onePerPartition(KafkaProducer<byte[], byte[]> producer, String topic, int phase, int partitions) {
        producer.beginTransaction();
        for (int p = 0; p < partitions; p++) {
            producer.send(new ProducerRecord<>(topic, p, key(p), value(PLAIN, phase, p)));
        }
        producer.commitTransaction();
    }

    /**
     * Sends {@code n} plain records on an open-loop schedule of {@code rate} records per second,
     * committing a transaction every {@code commitEveryMs}. Returns the achieved rate.
     */
    double paced(KafkaProducer<byte[], byte[]> producer, String topic, int phase, int n, int rate,
            long commitEveryMs) {
        long start = System.nanoTime();
        long txStart = 0;
        boolean open = false;
        for (int s = 0; s < n; s++) {
            long due = start + (long) (s * (1e9 / rate));
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            if (!open) {
                producer.beginTransaction();
                open = true;
                txStart = System.nanoTime();
            }
            producer.send(new ProducerRecord<>(topic, key(s), value(PLAIN, phase, s)));
            if (s == n - 1 || System.nanoTime() - txStart >= TimeUnit.MILLISECONDS.toNanos(commitEveryMs)) {
                producer.commitTransaction();
                open = false;
            }
        }
        return n / ((System.nanoTime() - start) / 1e9);
    }

    /**
     * Sends {@code pairs} order/payment pairs in batches: per batch the orders go out in one
     * transaction and are acknowledged, each acknowledgement is recorded in the {@link CausalClock},
     * then the payments (same keys, another topic) go out stamped with the clock in a second
     * transaction, so every payment claims the orders of its batch on its partition. With
     * {@code skew} the payment transaction commits first and the order transaction after it, so a
     * payment is visible before the orders it claims and the stage must hold it; without, the orders
     * commit first. {@code skewMs} widens the window in which payments are visible and their orders
     * are not (a pause between the two commits; skew only). {@code rate} (records per second, both
     * kinds counted; 0 = as fast as possible) paces the batches. A null {@code clock} sends the
     * same pairs unstamped, as a plain deployment would. Returns the achieved rate.
     */
    double pairs(KafkaProducer<byte[], byte[]> orderProducer, KafkaProducer<byte[], byte[]> paymentProducer,
            CausalClock clock, String orders, String payments, int phase, int pairs, int batch, int rate, boolean skew,
            long skewMs) {
        long start = System.nanoTime();
        List<Future<RecordMetadata>> acks = new ArrayList<>(batch);
        for (int i = 0; i < pairs; i += batch) {
            if (rate > 0) {
                long wait = start + (long) (2L * i * (1e9 / rate)) - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
            int end = Math.min(pairs, i + batch);
            orderProducer.beginTransaction();
            sendOrders(orderProducer, clock, orders, phase, i, end, acks);
            if (!skew) {
                orderProducer.commitTransaction();
            }
            paymentProducer.beginTransaction();
            for (int s = i; s < end; s++) {
                ProducerRecord<byte[], byte[]> payment = new ProducerRecord<>(payments, key(s), value(PAYMENT, phase, s));
                if (clock != null) {
                    clock.stamp(payment.headers());
                }
                paymentProducer.send(payment);
            }
            paymentProducer.commitTransaction();
            if (skew) {
                if (skewMs > 0) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(skewMs));
                }
                orderProducer.commitTransaction();
            }
        }
        return 2.0 * pairs / ((System.nanoTime() - start) / 1e9);
    }

    /** Sends orders {@code [from, to)} and records each acknowledgement in the clock, if any. */
    private void sendOrders(KafkaProducer<byte[], byte[]> producer, CausalClock clock, String orders, int phase,
            int from, int to, List<Future<RecordMetadata>> acks) {
        acks.clear();
        for (int s = from; s < to; s++) {
            acks.add(producer.send(new ProducerRecord<>(orders, key(s), value(ORDER, phase, s))));
        }
        producer.flush();
        for (Future<RecordMetadata> f : acks) {
            RecordMetadata md = get(f);
            if (clock != null) {
                clock.recordProduced(md);
            }
        }
    }

    private static RecordMetadata get(Future<RecordMetadata> f) {
        try {
            return f.get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("Order send failed", e);
        }
    }
}
