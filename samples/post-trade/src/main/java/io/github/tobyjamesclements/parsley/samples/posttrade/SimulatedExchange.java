package io.github.tobyjamesclements.parsley.samples.posttrade;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The exchange: every tick it accepts {@code posttrade.exchange.orders-per-second} orders' worth of
 * random orders and appends the resulting events to the journal. It knows nothing of Kafka. A
 * restart continues the journal's session and seqs; an empty journal starts a new session.
 */
@Component
class SimulatedExchange implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(SimulatedExchange.class);

    private final PostTradeProperties.Exchange settings;
    private final WorkFiles files;
    private final Journal journal;
    private final PostTradeMetrics metrics;
    private @Nullable ScheduledExecutorService executor;
    private Journal.@Nullable Appender appender;
    private @Nullable MatchingEngine engine;
    private double owed;

    SimulatedExchange(PostTradeProperties properties, WorkFiles files, Journal journal, PostTradeMetrics metrics) {
        this.settings = properties.getExchange();
        this.files = files;
        this.journal = journal;
        this.metrics = metrics;
    }

    @Override
    public synchronized void start() {
        try {
            JournalEntry last = journal.last();
            long session = last != null ? last.session() : System.currentTimeMillis();
            engine = new MatchingEngine(session, last != null ? last.seq() : 0, settings.getSymbols(), new Random());
            appender = journal.appender();
        } catch (IOException e) {
            throw new IllegalStateException("Cannot open the exchange's journal; file=" + files.journal(), e);
        }
        metrics.journalSeq.set(engine.lastSeq());
        log.info("Exchange session {} opened at seq {}: {} orders/s on {}, journal {}", engine.session(),
                engine.lastSeq(), settings.getOrdersPerSecond(), settings.getSymbols(), files.journal());
        executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "post-trade-exchange"));
        long tick = settings.getTick().toMillis();
        executor.scheduleAtFixedRate(this::tick, tick, tick, TimeUnit.MILLISECONDS);
    }

    private void tick() {
        owed += settings.getOrdersPerSecond() * settings.getTick().toMillis() / 1000.0;
        List<JournalEntry> events = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (; owed >= 1; owed--) {
            events.addAll(engine.submitRandomOrder(now));
        }
        try {
            appender.append(events);
        } catch (IOException | RuntimeException e) {
            log.error("The exchange cannot write its journal and halts trading; file={}", files.journal(), e);
            executor.shutdown();
            return;
        }
        metrics.journaled.increment(events.size());
        metrics.journalSeq.set(engine.lastSeq());
    }

    @Override
    public synchronized void stop() {
        if (executor == null) {
            return;
        }
        executor.shutdown();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
            appender.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            log.warn("Cannot close the journal; file={}", files.journal(), e);
        }
        executor = null;
    }

    @Override
    public boolean isRunning() {
        return executor != null;
    }
}
