package io.github.tobyjamesclements.parsley.samples.orders;

import io.github.tobyjamesclements.parsley.CausalClock;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads, for every payment the traffic generator writes, the customer's balance with that payment's
 * token, through the starter's endpoint ({@code GET /parsley/state/balances/{customer}}) of an
 * instance chosen at random from {@code orders.checker.instances} (this one when empty), and
 * counts the reads that come back stale. It logs
 * {@code read N balances after their payments, 0 stale} every {@code orders.checker.report-interval}.
 *
 * <p><b>The payment's token.</b> Each customer has a session {@link CausalClock} here that records
 * that customer's acknowledged payments, so its token after a payment claims that payment (a
 * customer's payments share one partition, so the latest claim covers the earlier ones).
 *
 * <p><b>Stale, precisely.</b> The balances fold counts a customer's payments ({@link Balance#payments()}).
 * The checker numbers each customer's acknowledged payments in acknowledgement order, which is their
 * offset order on the customer's partition: the {@code n}-th payment of this run. A read with the
 * token of the {@code n}-th payment is stale when it answers 404 (no balance at all) or a balance
 * with fewer than {@code n} payments: a state that misses the payment the token names. A balance
 * with more (later payments, or an earlier run's on a kept cluster) is not stale. A 503 (not caught
 * up within the wait, or the key between owners) is no answer, counted apart, never as fresh.
 */
final class BalanceChecker implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(BalanceChecker.class);

    private static final int LOGGED_STALE = 10;

    /** Reads waiting for their answer at most: below Tomcat's 200 request threads, each read holds one. */
    private static final int IN_FLIGHT = 160;

    /** One acknowledged payment: its customer and where it was written. */
    private record Paid(String customer, RecordMetadata metadata) {
    }

    private final KafkaClients clients;

    private final OrdersProperties.Checker settings;

    private final Environment environment;

    private final JsonMapper json;

    private final BlockingQueue<Paid> paid = new LinkedBlockingQueue<>();

    private final Semaphore inFlight = new Semaphore(IN_FLIGHT);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Random random = new Random();

    private final AtomicLong reads = new AtomicLong();

    private final AtomicLong stale = new AtomicLong();

    private final AtomicLong unanswered = new AtomicLong();

    /** Answered reads that the instance asked forwarded to the key's owner. */
    private final AtomicLong forwarded = new AtomicLong();

    /** Milliseconds from each answered read's request to its answer, summed. */
    private final AtomicLong latencyMs = new AtomicLong();

    // Confined to the checker thread.
    private final Map<String, CausalClock> sessions = new HashMap<>();

    private final Map<String, Long> paymentsSent = new HashMap<>();

    // Guarded by this: the counts at the last report.
    private long reportedReads;

    private long reportedLatencyMs;

    private volatile boolean running;

    private List<String> instances;

    private Admin admin;

    private Thread thread;

    private ScheduledExecutorService reporter;

    BalanceChecker(KafkaClients clients, OrdersProperties.Checker settings, Environment environment, JsonMapper json,
            MeterRegistry registry) {
        this.clients = clients;
        this.settings = settings;
        this.environment = environment;
        this.json = json;
        counter(registry, "orders.checker.balance.reads", reads, "Balances read with a payment's token and answered");
        counter(registry, "orders.checker.balance.stale", stale, "Balance reads that missed the payment of their token");
        counter(registry, "orders.checker.balance.unanswered", unanswered,
                "Balance reads answered 503 or not at all: no answer, neither fresh nor stale");
    }

    /** Called by the payment service once a payment is acknowledged, on the producer's thread. */
    void paid(String customer, RecordMetadata metadata) {
        if (running) {
            paid.add(new Paid(customer, metadata));
        }
    }

    /** Balances read with a payment's token and answered 200 or 404. */
    long reads() {
        return reads.get();
    }

    /** Answered reads that missed the payment of their token. */
    long stale() {
        return stale.get();
    }

    /** Answered reads that the instance asked forwarded to another, the key's owner. */
    long forwarded() {
        return forwarded.get();
    }

    @Override
    public synchronized void start() {
        instances = settings.getInstances().isEmpty()
                ? List.of("http://localhost:" + environment.getProperty("local.server.port", "8080"))
                : settings.getInstances();
        admin = Admin.create(clients.admin());
        running = true;
        thread = new Thread(this::run, "orders-balance-checker");
        thread.setDaemon(true);
        thread.start();
        long every = settings.getReportInterval().toMillis();
        reporter = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "orders-balance-checker-report");
            t.setDaemon(true);
            return t;
        });
        reporter.scheduleAtFixedRate(this::report, every, every, TimeUnit.MILLISECONDS);
        log.info("Reading each customer's balance after each payment, with its token, from {}", instances);
    }

    @Override
    public synchronized void stop() {
        if (!running) {
            return;
        }
        running = false;
        thread.interrupt();
        reporter.shutdownNow();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        admin.close(Duration.ofSeconds(5));
        report();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Before the traffic generator, so that no acknowledged payment goes unread. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 1;
    }

    private void run() {
        try {
            while (running) {
                Paid p = paid.take();
                long n = paymentsSent.merge(p.customer(), 1L, Long::sum);
                CausalClock session = sessions.computeIfAbsent(p.customer(), c -> new CausalClock(admin));
                session.recordProduced(p.metadata());
                inFlight.acquire();
                read(p.customer(), n, session.token().toString());
            }
        } catch (InterruptedException e) {
            // stop()
        } catch (RuntimeException e) {
            log.error("Balance checker stopped: {}", e.toString(), e);
        }
    }

    private void read(String customer, long n, String token) {
        long t0 = System.nanoTime();
        String instance = instances.get(random.nextInt(instances.size()));
        HttpRequest request = HttpRequest.newBuilder(URI.create(instance + "/parsley/state/balances/" + customer
                + "?wait=" + settings.getReadWait().toMillis() + "ms")).header("Parsley-Token", token)
                .timeout(settings.getReadWait().plusSeconds(5)).build();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> {
            try {
                judge(customer, n, instance, r, e, (System.nanoTime() - t0) / 1_000_000);
            } finally {
                inFlight.release();
            }
        });
    }

    private void judge(String customer, long n, String instance, HttpResponse<String> r, Throwable e, long ms) {
        if (e != null || (r.statusCode() != 200 && r.statusCode() != 404)) {
            unanswered.incrementAndGet();
            return;
        }
        long payments = r.statusCode() == 404 ? 0
                : json.readTree(r.body()).path("value").path("payments").asLong();
        latencyMs.addAndGet(ms);
        if (r.headers().firstValue("Parsley-Forwarded-To").isPresent()) {
            forwarded.incrementAndGet();
        }
        reads.incrementAndGet();
        if (payments < n && stale.incrementAndGet() <= LOGGED_STALE) {
            log.warn("Stale balance: customer={}, payment={} of this run, balance shows {} payment(s), status={},"
                    + " instance={}", customer, n, payments, r.statusCode(), instance);
        }
    }

    private synchronized void report() {
        long answered = reads.get();
        long latency = latencyMs.get();
        long none = unanswered.get();
        String mean = answered == reportedReads ? ""
                : " (" + (latency - reportedLatencyMs) / (answered - reportedReads) + " ms a read since the last line)";
        long hops = forwarded.get();
        log.info("read {} balances after their payments, {} stale{}{}{}", answered, stale.get(), mean,
                hops == 0 ? "" : "; " + hops + " forwarded to the instance that owns the customer",
                none == 0 ? "" : "; " + none + " not answered (503 or no connection), counted as neither");
        reportedReads = answered;
        reportedLatencyMs = latency;
    }

    private static void counter(MeterRegistry registry, String name, AtomicLong value, String description) {
        FunctionCounter.builder(name, value, AtomicLong::get).description(description).register(registry);
    }
}
