package io.github.tobyjamesclements.parsley.samples.posttrade;

import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.samples.posttrade.Applied.Kind;
import io.github.tobyjamesclements.parsley.samples.posttrade.Applied.Outcome;
import java.time.Duration;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The live checker, independent of Parsley's clocks: a plain read-committed consumer of
 * {@value Topics#APPLIED} from the beginning that counts applications per event id. A violation is
 * an event id applied twice, or a trade the stage applied before both of its orders. Everything is
 * counted in {@code posttrade.checker.*} meters and summed up in a log line every
 * {@code posttrade.checker.report-every}.
 */
@Component
class AppliedChecker implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(AppliedChecker.class);
    private static final Duration POLL = Duration.ofMillis(500);

    private final KafkaClients clients;
    private final Topic<String, Applied> applied;
    private final PostTradeMetrics metrics;
    private final Duration reportEvery;
    private final Map<Long, BitSet> appliedBySession = new HashMap<>();
    private long latestSession;
    private long appliedThrough;
    private volatile boolean running;
    private volatile @Nullable KafkaConsumer<byte[], byte[]> consumer;
    private @Nullable Thread thread;

    AppliedChecker(KafkaClients clients, Topic<String, Applied> applied, PostTradeMetrics metrics,
            PostTradeProperties properties) {
        this.clients = clients;
        this.applied = applied;
        this.metrics = metrics;
        this.reportEvery = properties.getChecker().getReportEvery();
    }

    @Override
    public synchronized void start() {
        running = true;
        thread = new Thread(this::run, "post-trade-checker");
        thread.start();
    }

    private void run() {
        Map<String, Object> config = clients.consumer();
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "post-trade-checker");
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer = c;
            assignAll(c);
            long nextReport = System.currentTimeMillis() + reportEvery.toMillis();
            while (running) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(POLL)) {
                    check(r);
                }
                if (System.currentTimeMillis() >= nextReport) {
                    report();
                    nextReport += reportEvery.toMillis();
                }
            }
        } catch (WakeupException e) {
            // stop() woke the consumer up.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("The checker stopped", e);
        }
    }

    private void assignAll(KafkaConsumer<byte[], byte[]> c) throws InterruptedException {
        List<TopicPartition> partitions = List.of();
        while (running && partitions.isEmpty()) {
            partitions = c.partitionsFor(applied.name(), POLL).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            if (partitions.isEmpty()) {
                log.info("Waiting for topic {}", applied.name());
                TimeUnit.SECONDS.sleep(1);
            }
        }
        c.assign(partitions);
        c.seekToBeginning(partitions);
    }

    private void check(ConsumerRecord<byte[], byte[]> r) {
        Applied a = applied.valueCodec().decode(r.value());
        if (a.outcome() == Outcome.DUPLICATE) {
            metrics.duplicatesIgnored.increment();
            return;
        }
        metrics.checked.increment();
        int dash = a.eventId().lastIndexOf('-');
        long session = Long.parseLong(a.eventId().substring(0, dash));
        int seq = Math.toIntExact(Long.parseLong(a.eventId().substring(dash + 1)));
        BitSet seen = appliedBySession.computeIfAbsent(session, s -> new BitSet());
        if (seen.get(seq)) {
            metrics.appliedTwice.increment();
            log.error("VIOLATION: event {} ({} {}) applied twice; {}-{}@{}", a.eventId(), a.kind(), a.symbol(),
                    r.topic(), r.partition(), r.offset());
        }
        seen.set(seq);
        if (a.kind() == Kind.TRADE && !a.causesFirst()) {
            metrics.tradesBeforeOrders.increment();
            log.error("VIOLATION: trade {} ({}) applied before its orders; {}-{}@{}", a.eventId(), a.symbol(),
                    r.topic(), r.partition(), r.offset());
        }
        if (session > latestSession) {
            latestSession = session;
            appliedThrough = 0;
        }
        if (session == latestSession) {
            appliedThrough = seen.nextClearBit(Math.toIntExact(appliedThrough) + 1) - 1;
            metrics.appliedThrough.set(appliedThrough);
        }
    }

    private void report() {
        log.info("checked {} applications, {} applied twice, {} trades before their orders; {} duplicates published"
                + " ({} outages), {} ignored by post-trade; every event through seq {} applied, exchange at seq {}",
                count(metrics.checked.count()), count(metrics.appliedTwice.count()),
                count(metrics.tradesBeforeOrders.count()), count(metrics.duplicatesPublished.count()),
                count(metrics.outages.count()), count(metrics.duplicatesIgnored.count()), metrics.appliedThrough.get(),
                metrics.journalSeq.get());
    }

    private static long count(double value) {
        return (long) value;
    }

    @Override
    public synchronized void stop() {
        running = false;
        KafkaConsumer<byte[], byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        if (thread != null) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            thread = null;
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
