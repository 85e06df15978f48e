package io.github.tobyjamesclements.parsley.samples.orders;

import io.github.tobyjamesclements.parsley.CausalClock;
import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.spring.ParsleyCodecs;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.SmartLifecycle;

/**
 * The order service and the payment service of the scenario, paced by one scheduled thread.
 *
 * <p>The order service writes {@link OrderCreated} with a transactional producer and keeps each
 * transaction open for {@code orders.generator.skew}. The payment service confirms each order as
 * soon as the broker has acknowledged it, while its transaction is still open: it records the
 * order in a {@link CausalClock}, stamps the {@link PaymentConfirmed} with it and writes it at once
 * with a plain producer. A {@code read_committed} reader therefore sees the payment up to the skew
 * before its order: without Parsley the notifier would notify it first. With Parsley the notifier
 * holds it until the order commits (visible at {@code /actuator/parsley} meanwhile).
 */
final class TrafficGenerator implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(TrafficGenerator.class);

    private static final Duration TICK = Duration.ofMillis(10);

    private final OrdersProperties.Generator settings;

    private final KafkaClients clients;

    private final Codec<OrderCreated> orderCodec;

    private final Codec<PaymentConfirmed> paymentCodec;

    private final AtomicLong ordersSent = new AtomicLong();

    /** Told of each acknowledged payment, on the producer's I/O thread, in each partition's order. */
    private final BiConsumer<String, RecordMetadata> onPaid;

    private final String runId = Long.toString(System.currentTimeMillis(), 36);

    private final Random random = new Random();

    private volatile ScheduledExecutorService executor;

    // Confined to the executor's thread while it runs, then to the thread that stops it.
    private Admin admin;

    private CausalClock clock;

    private KafkaProducer<String, byte[]> orders;

    private KafkaProducer<String, byte[]> payments;

    private long startedAt;

    private long transactionOpenedAt = -1;

    private long sequence;

    private boolean failed;

    TrafficGenerator(OrdersProperties.Generator settings, KafkaClients clients, ParsleyCodecs codecs,
            MeterRegistry registry, BiConsumer<String, RecordMetadata> onPaid) {
        requireAtLeast("orders.generator.rate", settings.getRate(), 1);
        requireAtLeast("orders.generator.customers", settings.getCustomers(), 1);
        if (settings.getSkew().isNegative()) {
            throw new InvalidConfigurationPropertyValueException("orders.generator.skew", settings.getSkew(),
                    "must not be negative");
        }
        this.settings = settings;
        this.clients = clients;
        this.onPaid = onPaid;
        this.orderCodec = codecs.json(OrderCreated.class);
        this.paymentCodec = codecs.json(PaymentConfirmed.class);
        FunctionCounter.builder("orders.generator.orders", ordersSent, AtomicLong::get)
                .description("Orders written by the traffic generator, each followed by its payment")
                .register(registry);
    }

    @Override
    public void start() {
        ScheduledExecutorService e = Executors.newSingleThreadScheduledExecutor(r -> daemon(r,
                "order-and-payment-services"));
        e.execute(this::open);
        e.scheduleWithFixedDelay(this::tick, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
        executor = e;
        log.info("Generating {} orders/s for {} customers; each orders transaction stays open for {} ms",
                settings.getRate(), settings.getCustomers(), settings.getSkew().toMillis());
    }

    @Override
    public void stop() {
        ScheduledExecutorService e = executor;
        executor = null;
        if (e == null) {
            return;
        }
        e.shutdown();
        try {
            if (!e.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("Traffic generator did not stop within 10s");
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        close();
    }

    @Override
    public boolean isRunning() {
        return executor != null;
    }

    private void open() {
        try {
            admin = Admin.create(clients.admin());
            clock = new CausalClock(admin);
            Map<String, Object> ordersConfig = clients.producer();
            ordersConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "parsley-orders-order-service-" + runId);
            ordersConfig.put(ProducerConfig.CLIENT_ID_CONFIG, "order-service");
            // One request at a time: a produce retried right after a commit (CONCURRENT_TRANSACTIONS)
            // then never puts the requests behind it out of sequence.
            ordersConfig.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
            orders = new KafkaProducer<>(ordersConfig, new StringSerializer(), new ByteArraySerializer());
            Map<String, Object> paymentsConfig = clients.producer();
            paymentsConfig.put(ProducerConfig.CLIENT_ID_CONFIG, "payment-service");
            payments = new KafkaProducer<>(paymentsConfig, new StringSerializer(), new ByteArraySerializer());
            orders.initTransactions();
            startedAt = System.nanoTime();
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    private void tick() {
        if (failed) {
            return;
        }
        try {
            long now = System.nanoTime();
            long due = (long) ((now - startedAt) / 1e9 * settings.getRate());
            if (due - sequence > settings.getRate()) {
                sequence = due - settings.getRate(); // fell behind by over a second: drop the backlog
            }
            if (due > sequence) {
                if (transactionOpenedAt < 0) {
                    orders.beginTransaction();
                    transactionOpenedAt = now;
                }
                sendOrdersAndPayments((int) (due - sequence));
            }
            if (transactionOpenedAt >= 0 && now - transactionOpenedAt >= settings.getSkew().toNanos()) {
                orders.commitTransaction();
                transactionOpenedAt = -1;
            }
        } catch (RuntimeException | ExecutionException e) {
            fail(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void sendOrdersAndPayments(int count) throws ExecutionException, InterruptedException {
        List<ProducerRecord<String, byte[]>> paid = new ArrayList<>(count);
        List<Future<RecordMetadata>> acks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String customer = String.format(Locale.ROOT, "customer-%02d",
                    random.nextInt(settings.getCustomers()));
            OrderCreated order = new OrderCreated(runId + "-" + (++sequence), 100 + random.nextInt(9_900));
            ProducerRecord<String, byte[]> created = new ProducerRecord<>(OrderTopics.ORDERS, customer,
                    orderCodec.encode(order));
            // Orders depend on nothing the notifier reads, but an unstamped record there would be
            // delivered with no ordering guarantee (and warned about): the stamp says so explicitly.
            clock.stamp(created.headers());
            acks.add(orders.send(created));
            paid.add(new ProducerRecord<>(OrderTopics.PAYMENTS, customer,
                    paymentCodec.encode(new PaymentConfirmed(order.orderId(), order.amount()))));
        }
        for (int i = 0; i < count; i++) {
            clock.recordProduced(acks.get(i).get()); // acknowledged, but its transaction is still open
            ProducerRecord<String, byte[]> payment = paid.get(i);
            clock.stamp(payment.headers());
            payments.send(payment, (metadata, e) -> {
                if (e != null) {
                    log.warn("Payment not written: {}", e.toString());
                } else {
                    onPaid.accept(payment.key(), metadata);
                }
            });
        }
        ordersSent.addAndGet(count);
    }

    private static void requireAtLeast(String property, int value, int minimum) {
        if (value < minimum) {
            throw new InvalidConfigurationPropertyValueException(property, value, "must be at least " + minimum);
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private void fail(Exception e) {
        failed = true;
        log.error("Traffic generator stopped: {}", e.toString(), e);
    }

    private void close() {
        try {
            if (transactionOpenedAt >= 0 && !failed) {
                orders.commitTransaction();
            }
        } catch (RuntimeException e) {
            log.warn("Last orders transaction not committed: {}", e.toString());
        }
        Duration timeout = Duration.ofSeconds(5);
        if (orders != null) {
            orders.close(timeout);
        }
        if (payments != null) {
            payments.close(timeout);
        }
        if (admin != null) {
            admin.close(timeout);
        }
        log.info("Traffic generator stopped after {} orders", ordersSent.get());
    }
}
