package io.github.tobyjamesclements.parsley.samples.orders;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.HeldRecord;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import tools.jackson.databind.json.JsonMapper;

/**
 * Verifies, live and independently of Parsley, what the sample promises: no payment is notified
 * before its order, and every balance update applies exactly one payment.
 *
 * <p>A plain {@code read_committed} consumer on its own thread reads {@code notifications} and
 * {@code balances} from the beginning. An order and its payment share the customer key, so they
 * share a notifications partition, whose record order is the order in which the notifier saw
 * them. The same consumer also reads {@code orders} and {@code payments} directly, to show what a
 * reader without Parsley sees: payments before their orders. Results are the meters
 * {@code orders.checker.*} and a log line every {@code orders.checker.report-interval}.
 */
final class OrderChecker implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(OrderChecker.class);

    private static final int LOGGED_VIOLATIONS = 10;

    private final Map<String, Object> consumerConfig;

    private final Duration reportInterval;

    private final JsonMapper json;

    private final ObjectProvider<CausalStreams> streams;

    private final AtomicLong checked = new AtomicLong();

    private final AtomicLong violations = new AtomicLong();

    private final AtomicLong balanceUpdates = new AtomicLong();

    private final AtomicLong balanceErrors = new AtomicLong();

    private final AtomicLong plainPayments = new AtomicLong();

    private final AtomicLong plainPaymentsFirst = new AtomicLong();

    // Confined to the checker thread.
    private final Set<String> ordersAwaitingPayment = new HashSet<>();

    private final Map<String, Long> paymentsPerCustomer = new HashMap<>();

    private final Set<String> plainOrdersAwaitingPayment = new HashSet<>();

    private final Set<String> plainPaymentsAwaitingOrder = new HashSet<>();

    private volatile boolean running;

    private volatile KafkaConsumer<String, String> consumer;

    private Thread thread;

    private ScheduledExecutorService reporter;

    OrderChecker(KafkaClients clients, OrdersProperties.Checker settings, JsonMapper json,
            ObjectProvider<CausalStreams> streams, MeterRegistry registry) {
        this.consumerConfig = clients.consumer();
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, "orders-checker");
        consumerConfig.remove(ConsumerConfig.GROUP_ID_CONFIG); // assigned partitions, no group, no commits
        this.reportInterval = settings.getReportInterval();
        this.json = json;
        this.streams = streams;
        counter(registry, "orders.checker.checked", checked, "Notifications checked");
        counter(registry, "orders.checker.violations", violations, "Payments notified before their order");
        counter(registry, "orders.checker.balance.updates", balanceUpdates, "Balance updates checked");
        counter(registry, "orders.checker.balance.errors", balanceErrors,
                "Balance updates that did not apply exactly one payment");
        counter(registry, "orders.checker.plain.payments", plainPayments,
                "Payments read directly from the payments topic, without Parsley");
        counter(registry, "orders.checker.plain.payments.first", plainPaymentsFirst,
                "Payments a plain read_committed consumer saw before their order");
    }

    /** Notifications checked so far. */
    long checked() {
        return checked.get();
    }

    /** Payments notified before their order so far. */
    long violations() {
        return violations.get();
    }

    /** Balance updates checked so far. */
    long balanceUpdates() {
        return balanceUpdates.get();
    }

    /** Balance updates that did not apply exactly one payment. */
    long balanceErrors() {
        return balanceErrors.get();
    }

    /** Payments a plain consumer of orders and payments saw before their order so far. */
    long plainPaymentsFirst() {
        return plainPaymentsFirst.get();
    }

    @Override
    public synchronized void start() {
        running = true;
        thread = daemon(this::run, "orders-checker");
        thread.start();
        reporter = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "orders-checker-report"));
        reporter.scheduleAtFixedRate(this::report, reportInterval.toMillis(), reportInterval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (!running) {
            return;
        }
        running = false;
        KafkaConsumer<String, String> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        reporter.shutdownNow();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        report();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void run() {
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(consumerConfig, new StringDeserializer(),
                new StringDeserializer())) {
            consumer = c;
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : List.of(OrderTopics.NOTIFICATIONS, OrderTopics.BALANCES, OrderTopics.ORDERS,
                    OrderTopics.PAYMENTS)) {
                c.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            }
            c.assign(partitions);
            c.seekToBeginning(partitions);
            while (running) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
                    switch (r.topic()) {
                        case OrderTopics.NOTIFICATIONS -> checkNotification(r);
                        case OrderTopics.BALANCES -> checkBalance(r);
                        case OrderTopics.ORDERS -> plainOrder(json.readValue(r.value(), OrderCreated.class).orderId());
                        default -> plainPayment(json.readValue(r.value(), PaymentConfirmed.class).orderId());
                    }
                }
            }
        } catch (WakeupException e) {
            // stop() woke the consumer up
        } catch (RuntimeException e) {
            log.error("Checker stopped: {}", e.toString(), e);
        }
    }

    private void checkNotification(ConsumerRecord<String, String> r) {
        String[] kindAndOrder = r.value().split(" ", 2);
        if (kindAndOrder[0].equals("order")) {
            ordersAwaitingPayment.add(kindAndOrder[1]);
        } else if (!ordersAwaitingPayment.remove(kindAndOrder[1])) {
            if (violations.incrementAndGet() <= LOGGED_VIOLATIONS) {
                log.warn("Payment notified before its order; order={}, customer={}, partition={}, offset={}",
                        kindAndOrder[1], r.key(), r.partition(), r.offset());
            }
        }
        checked.incrementAndGet();
    }

    private void checkBalance(ConsumerRecord<String, String> r) {
        long payments = json.readValue(r.value(), Balance.class).payments();
        Long previous = paymentsPerCustomer.put(r.key(), payments);
        if (previous != null && payments != previous + 1) {
            if (balanceErrors.incrementAndGet() <= LOGGED_VIOLATIONS) {
                log.warn("Balance update did not apply exactly one payment; customer={}, payments={}, previous={}",
                        r.key(), payments, previous);
            }
        }
        balanceUpdates.incrementAndGet();
    }

    /** An order as a reader without Parsley sees it, straight from the orders topic. */
    private void plainOrder(String orderId) {
        if (!plainPaymentsAwaitingOrder.remove(orderId)) {
            plainOrdersAwaitingPayment.add(orderId);
        }
    }

    /** A payment as a reader without Parsley sees it, straight from the payments topic. */
    private void plainPayment(String orderId) {
        if (!plainOrdersAwaitingPayment.remove(orderId)) {
            plainPaymentsAwaitingOrder.add(orderId);
            plainPaymentsFirst.incrementAndGet();
        }
        plainPayments.incrementAndGet();
    }

    private void report() {
        log.info("checked {} notifications, {} out of order | balances: {} updates, {} inexact"
                + " | without Parsley: {} of {} payments read before their order{}", checked.get(), violations.get(),
                balanceUpdates.get(), balanceErrors.get(), plainPaymentsFirst.get(), plainPayments.get(), holds());
    }

    /** For the reader, not for the verdict: how many payments Parsley holds for their orders right now. */
    private String holds() {
        CausalStreams s = streams.getIfAvailable();
        if (s == null) {
            return "";
        }
        int held = s.explainHolds().stream().filter(h -> h.topic().equals(OrderTopics.PAYMENTS))
                .mapToInt(HeldRecord::queued).sum();
        return " | Parsley is holding " + held + " payment(s) until their orders commit";
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private static void counter(MeterRegistry registry, String name, AtomicLong value, String description) {
        FunctionCounter.builder(name, value, AtomicLong::get).description(description).register(registry);
    }
}
