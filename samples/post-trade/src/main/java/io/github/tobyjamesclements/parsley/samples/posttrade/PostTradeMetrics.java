package io.github.tobyjamesclements.parsley.samples.posttrade;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/**
 * The sample's meters, in {@code /actuator/metrics}: what the exchange journaled, what the
 * publisher sent (and sent again), and what the checker verified.
 */
@Component
class PostTradeMetrics {

    final Counter journaled;
    final Counter published;
    final Counter duplicatesPublished;
    final Counter outages;
    final Counter checked;
    final Counter appliedTwice;
    final Counter tradesBeforeOrders;
    final Counter duplicatesIgnored;
    final AtomicLong journalSeq = new AtomicLong();
    final AtomicLong appliedThrough = new AtomicLong();

    PostTradeMetrics(MeterRegistry registry) {
        journaled = Counter.builder("posttrade.exchange.events").description("Events the exchange journaled")
                .register(registry);
        published = Counter.builder("posttrade.publisher.published")
                .description("Events the publisher sent and Kafka acknowledged, copies included").register(registry);
        duplicatesPublished = Counter.builder("posttrade.publisher.duplicates")
                .description("Events the publisher sent again after an outage, already published before")
                .register(registry);
        outages = Counter.builder("posttrade.publisher.outages").description("Simulated publisher outages")
                .register(registry);
        checked = Counter.builder("posttrade.checker.checked")
                .description("Applications of events the checker verified").register(registry);
        appliedTwice = violations(registry, "applied-twice");
        tradesBeforeOrders = violations(registry, "trade-before-orders");
        duplicatesIgnored = Counter.builder("posttrade.checker.duplicates.ignored")
                .description("Copies of events the post-trade stage recognised and did not apply").register(registry);
        Gauge.builder("posttrade.exchange.seq", journalSeq, AtomicLong::get)
                .description("Seq of the exchange's last journaled event").register(registry);
        Gauge.builder("posttrade.checker.applied.through", appliedThrough, AtomicLong::get)
                .description("Highest seq such that it and every earlier event of the session were applied")
                .register(registry);
    }

    private static Counter violations(MeterRegistry registry, String kind) {
        return Counter.builder("posttrade.checker.violations").tag("kind", kind)
                .description("Events applied twice, or trades applied before their orders: always zero")
                .register(registry);
    }
}
