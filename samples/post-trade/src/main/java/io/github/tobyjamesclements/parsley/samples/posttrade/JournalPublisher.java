package io.github.tobyjamesclements.parsley.samples.posttrade;

import io.github.tobyjamesclements.parsley.Topic;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The exchange's Kafka publisher: it tails the journal and publishes every event at least once,
 * orders to {@value Topics#ORDERS} and trades to {@value Topics#TRADES}, keyed by symbol, each
 * with an {@value EventIds#HEADER} header.
 *
 * <p>One round every {@code batch-interval}, on one thread. A round either sends the next batch:
 * <ol>
 *   <li>read the next whole journal lines; send their orders in a new transaction, flush, and
 *       record each acknowledged send in the {@link io.github.tobyjamesclements.parsley.CausalClock};</li>
 *   <li>send their trades, each stamped with the clock, so it claims its orders' offsets;</li>
 * </ol>
 * or, when a batch is open, commits its order transaction: the batch is then acknowledged. The
 * order transaction stays open for a round, so a trade is readable before its orders
 * (read-committed readers see the orders only at the commit): without Parsley, trades would
 * overtake their orders. The checkpoint (the contiguous acknowledged line) is saved once per
 * {@code checkpoint-interval}. A failed send commits the open order transaction if it still can
 * (never leaving readable trades whose orders were rolled back, unless the commit itself fails),
 * drops the clients and resends from the acknowledged line. A simulated outage happens between
 * rounds, with no transaction open; it also forgets the acknowledged line and resends from the
 * saved checkpoint, so events already published go out again: duplicates, counted in
 * {@code posttrade.publisher.duplicates}.
 */
@Component
class JournalPublisher implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(JournalPublisher.class);
    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final PostTradeProperties.Publisher settings;
    private final WorkFiles files;
    private final Journal journal;
    private final KafkaClients clients;
    private final PostTradeMetrics metrics;
    private final BatchSender sender;
    private final String transactionalId;

    // Touched by the publisher thread only.
    private @Nullable ScheduledExecutorService executor;
    private @Nullable ScheduledFuture<?> rounds;
    private @Nullable PublisherConnection connection;
    private Journal.@Nullable Tail tail;
    private @Nullable Batch open;
    private boolean transactionOpen;
    private Checkpoint saved = Checkpoint.START;
    private Checkpoint acked = Checkpoint.START;
    private boolean forgetAcked = true;
    private long highestPublished;
    private long resumeAt;
    private long nextOutage;
    private long nextSave;

    JournalPublisher(PostTradeProperties properties, WorkFiles files, Journal journal, KafkaClients clients,
            PostTradeMetrics metrics, Topic<String, OrderAccepted> orders, Topic<String, TradeExecuted> trades,
            @Value("${spring.application.name}") String applicationName) {
        this.settings = properties.getPublisher();
        this.files = files;
        this.journal = journal;
        this.clients = clients;
        this.metrics = metrics;
        this.sender = new BatchSender(settings, orders, trades);
        this.transactionalId = applicationName + "-publisher";
    }

    @Override
    public synchronized void start() {
        if (!settings.isStampTrades()) {
            log.warn("Trades are published without causal stamps (posttrade.publisher.stamp-trades=false): expect"
                    + " trades applied before their orders");
        }
        nextOutage = System.currentTimeMillis() + settings.getFirstOutageAfter().toMillis();
        executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "post-trade-publisher"));
        rounds = executor.scheduleWithFixedDelay(this::round, 0, settings.getBatchInterval().toMillis(),
                TimeUnit.MILLISECONDS);
    }

    private void round() {
        long now = System.currentTimeMillis();
        try {
            if (connection == null) {
                if (now < resumeAt) {
                    return;
                }
                connect();
            }
            if (open != null) {
                // The next batch waits for the next round, so the broker has finished this transaction
                // before the next one starts sending to the same partitions.
                commit();
            } else if (outageDue(now)) {
                simulateOutage(now);
                return;
            } else {
                List<Journal.Line> lines = tail.read(settings.getMaxBatch());
                if (!lines.isEmpty()) {
                    open = send(lines);
                }
            }
            if (now >= nextSave) {
                save();
                nextSave = now + settings.getCheckpointInterval().toMillis();
            }
        } catch (Exception e) {
            log.warn("Publishing failed; resending from the last acknowledged event (seq {}) in {}", acked.seq(),
                    RETRY_AFTER, e);
            disconnect();
            resumeAt = now + RETRY_AFTER.toMillis();
        }
    }

    private void connect() throws IOException {
        if (forgetAcked) {
            acked = Checkpoint.load(files.checkpoint());
            saved = acked;
            forgetAcked = false;
        }
        connection = PublisherConnection.open(clients, transactionalId);
        tail = journal.tail(acked.position());
        log.info("Publisher connected; publishing the journal from seq {}", acked.seq() + 1);
    }

    private Batch send(List<Journal.Line> lines) throws ExecutionException, InterruptedException, TimeoutException {
        PublisherConnection c = connection;
        c.orders().beginTransaction();
        transactionOpen = true;
        sender.sendOrders(c, lines);
        sender.sendTrades(c, lines);
        Journal.Line last = lines.get(lines.size() - 1);
        return new Batch(lines.get(0).entry().seq(), last.entry().seq(), last.end());
    }

    private void commit() {
        connection.orders().commitTransaction();
        transactionOpen = false;
        Batch batch = open;
        open = null;
        long copies = Math.max(0, Math.min(batch.lastSeq(), highestPublished) - batch.firstSeq() + 1);
        metrics.published.increment(batch.lastSeq() - batch.firstSeq() + 1);
        metrics.duplicatesPublished.increment(copies);
        highestPublished = Math.max(highestPublished, batch.lastSeq());
        acked = new Checkpoint(batch.lastSeq(), batch.end());
    }

    private void save() throws IOException {
        if (!acked.equals(saved)) {
            acked.save(files.checkpoint());
            saved = acked;
        }
    }

    /** Whether to simulate an outage now: when one is due and it would lose something (unsaved progress). */
    private boolean outageDue(long now) {
        return !settings.getOutageEvery().isZero() && now >= nextOutage && acked.seq() > saved.seq();
    }

    private void simulateOutage(long now) {
        log.warn("Simulated publisher outage: dropping the Kafka clients and forgetting the {} event(s) acknowledged"
                + " since the last checkpoint (seq {}); resuming from it in {}, so they are published again",
                acked.seq() - saved.seq(), saved.seq(), settings.getOutageDuration());
        metrics.outages.increment();
        disconnect();
        forgetAcked = true;
        resumeAt = now + settings.getOutageDuration().toMillis();
        nextOutage = now + settings.getOutageEvery().toMillis();
    }

    private void disconnect() {
        if (connection != null) {
            connection.close(transactionOpen);
            connection = null;
        }
        transactionOpen = false;
        open = null;
        if (tail != null) {
            try {
                tail.close();
            } catch (IOException e) {
                log.debug("Cannot close the journal tail", e);
            }
            tail = null;
        }
    }

    @Override
    public synchronized void stop() {
        if (executor == null) {
            return;
        }
        rounds.cancel(false);
        Future<?> last = executor.submit(this::shutDown);
        executor.shutdown();
        try {
            last.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("The publisher did not shut down cleanly", e);
        }
        executor = null;
    }

    private void shutDown() {
        try {
            if (connection != null && open != null) {
                commit();
            }
            save();
            log.info("Publisher stopped at seq {} (checkpoint saved)", acked.seq());
        } catch (Exception e) {
            log.warn("Cannot finish the last batch; the next start resends from seq {}", saved.seq() + 1, e);
        } finally {
            disconnect();
        }
    }

    @Override
    public boolean isRunning() {
        return executor != null;
    }

    /** A round's sends: journal seqs {@code firstSeq..lastSeq}, ending at journal position {@code end}. */
    private record Batch(long firstSeq, long lastSeq, long end) {
    }
}
