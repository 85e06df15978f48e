package io.github.tobyjamesclements.parsley.faults;

import io.github.tobyjamesclements.parsley.CausalClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The traffic of the fault suite: orders and their payments, as an order service and a payment
 * service would write them. Each cycle opens a transaction on the orders topic, sends a few orders,
 * then sends one payment per order (stamped by a {@link CausalClock} that has seen the order's
 * acknowledgement, so the payment claims its order), and only then commits the orders: payments
 * are readable before their orders, so a consumer without the gate sees some payments first.
 *
 * <p>Order {@code v} goes to key {@code k(v mod keys)} with value {@code "v"}; its payment to the
 * same key with value {@code "w:v"}. The load keeps going through broker faults: a failed
 * transaction is aborted (or its producer replaced), a failed payment logged; what really committed
 * is read back from the topics by {@link DeliveryCheck}, not assumed here. Runs on its own thread;
 * {@link #pause()} and {@link #resume()} are called from another.
 */
public final class OrderLoad implements AutoCloseable {

    /** A cycle's length: the orders of a cycle share one transaction. */
    private static final Duration CYCLE = Duration.ofMillis(500);

    private final String bootstrap;
    private final String orders;
    private final String payments;
    private final int keys;
    private final int ordersPerCycle;
    private final Duration hold;
    private final Consumer<String> events;
    private final Admin admin;
    private final CausalClock clock;
    private final KafkaProducer<String, String> paymentProducer;
    private final AtomicLong sequence = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final Object gate = new Object();
    private final Thread thread;
    private KafkaProducer<String, String> orderProducer;
    private boolean paused;
    private boolean busy;
    private volatile boolean closed;

    /**
     * A load of {@code ordersPerSecond} orders (and as many payments) a second, in cycles of half a
     * second, each cycle's orders held in their open transaction for {@code hold} after their
     * payments were acknowledged.
     *
     * @param events where a failure and its recovery are reported (one line each); never null
     */
    public OrderLoad(String bootstrap, String orders, String payments, int keys, int ordersPerSecond, Duration hold,
            Consumer<String> events) {
        this.bootstrap = bootstrap;
        this.orders = orders;
        this.payments = payments;
        this.keys = keys;
        this.ordersPerCycle = (int) Math.max(1, ordersPerSecond * CYCLE.toMillis() / 1000);
        this.hold = hold;
        this.events = events;
        this.admin = Admin.create(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        this.clock = new CausalClock(admin);
        this.paymentProducer = new KafkaProducer<>(producerConfig(null), new StringSerializer(),
                new StringSerializer());
        this.thread = new Thread(this::run, "order-load");
    }

    /** Starts sending. */
    public void start() {
        thread.start();
    }

    /** Stops sending after the cycle in flight, and returns once it ended. */
    public void pause() throws InterruptedException {
        synchronized (gate) {
            paused = true;
            while (busy) {
                gate.wait();
            }
        }
    }

    /** Sends again after {@link #pause()}. */
    public void resume() {
        synchronized (gate) {
            paused = false;
            gate.notifyAll();
        }
    }

    /** The number of failed sends and transactions so far. */
    public long failures() {
        return failures.get();
    }

    private void run() {
        while (!closed) {
            synchronized (gate) {
                while (paused && !closed) {
                    try {
                        gate.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                busy = true;
            }
            long began = System.nanoTime();
            try {
                oneCycle();
                long left = CYCLE.toNanos() - (System.nanoTime() - began);
                if (left > 0) {
                    TimeUnit.NANOSECONDS.sleep(left);
                }
            } catch (InterruptedException e) {
                return;
            } finally {
                synchronized (gate) {
                    busy = false;
                    gate.notifyAll();
                }
            }
        }
    }

    private void oneCycle() throws InterruptedException {
        try {
            if (orderProducer == null) {
                orderProducer = new KafkaProducer<>(producerConfig("fault-orders-" + bootstrap.hashCode()),
                        new StringSerializer(), new StringSerializer());
                orderProducer.initTransactions();
            }
            orderProducer.beginTransaction();
            List<Long> sent = new ArrayList<>();
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (int i = 0; i < ordersPerCycle; i++) {
                long v = sequence.incrementAndGet();
                acks.add(send(orderProducer, orders, v, Long.toString(v)));
                sent.add(v);
            }
            acknowledged(acks);
            // Every payment is stamped after all the cycle's orders were acknowledged: each claims its order.
            for (long v : sent) {
                acks.add(send(paymentProducer, payments, v, sequence.incrementAndGet() + ":" + v));
            }
            acknowledged(acks);
            TimeUnit.NANOSECONDS.sleep(hold.toNanos());
            orderProducer.commitTransaction();
        } catch (RuntimeException | ExecutionException e) {
            failures.incrementAndGet();
            events.accept("load: " + rootMessage(e) + "; the orders' transaction is aborted or its producer replaced");
            recover();
        }
    }

    private Future<RecordMetadata> send(KafkaProducer<String, String> producer, String topic, long orderV,
            String value) {
        ProducerRecord<String, String> r = new ProducerRecord<>(topic, "k" + (orderV % keys), value);
        clock.stamp(r.headers());
        return producer.send(r);
    }

    /** Waits for every pending send and makes each a cause of later sends. */
    private void acknowledged(List<Future<RecordMetadata>> acks) throws ExecutionException, InterruptedException {
        for (Future<RecordMetadata> ack : acks) {
            clock.recordProduced(ack.get());
        }
        acks.clear();
    }

    private void recover() {
        try {
            orderProducer.abortTransaction();
        } catch (RuntimeException e) {
            // Fenced, fatal, or the coordinator still away: a new producer (same transactional id)
            // fences the old one and aborts what it left open.
            orderProducer.close(Duration.ZERO);
            orderProducer = null;
        }
    }

    private Map<String, Object> producerConfig(String transactionalId) {
        Map<String, Object> c = new HashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 180_000,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000));
        if (transactionalId != null) {
            c.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
            // Long enough that no fault of the suite times the load's own transaction out.
            c.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 600_000);
        }
        return c;
    }

    static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null) {
            c = c.getCause();
        }
        return c.getClass().getSimpleName() + ": " + c.getMessage();
    }

    /** Stops the load thread and closes its clients. */
    @Override
    public void close() throws InterruptedException {
        closed = true;
        resume();
        thread.interrupt();
        thread.join(TimeUnit.SECONDS.toMillis(30));
        if (orderProducer != null) {
            orderProducer.close(Duration.ofSeconds(5));
        }
        paymentProducer.close(Duration.ofSeconds(5));
        admin.close(Duration.ofSeconds(5));
    }
}
