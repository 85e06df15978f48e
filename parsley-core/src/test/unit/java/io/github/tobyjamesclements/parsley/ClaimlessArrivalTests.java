package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.junit.jupiter.api.Test;

/**
 * Which arrivals claim nothing: a record without a {@code vc} header (unstamped) and a plain
 * client's stamp with no claims (empty stamp) are counted apart; a plain stamp with a claim, and
 * a stage's tagged stamp even with an empty clock (its sender tag orders it), are not counted.
 */
class ClaimlessArrivalTests {

    private static final String PAYMENTS = "payments";
    private static final Channel PAYMENTS_0 = new Channel(LocalTopicCatalog.idOf(PAYMENTS), 0);
    private static final Channel ORDERS_0 = new Channel(LocalTopicCatalog.idOf("orders"), 0);

    private record At(String topic, int partition, long offset) implements RecordMetadata {
    }

    private final StreamsMetrics registry = new MockProcessorContext<byte[], byte[]>().metrics();
    private final StageMetrics metrics = new StageMetrics(registry, "notifier", "0_0", List.of("orders", PAYMENTS),
            () -> 0);
    private final ArrivalChecks checks = new ArrivalChecks("notifier",
            new NodeRig().consumes(ORDERS_0, PAYMENTS_0).start(), FixedTopicCatalog.brokerBacked(List.of("orders",
                    PAYMENTS)), HoldBoard.timedByTasks(), metrics, Set.of("orders", PAYMENTS));
    private final StampReader stamps = new StampReader(ChannelCache.of(List.of(ORDERS_0, PAYMENTS_0)));

    @Test
    void onlyAPlainStampWithoutClaimsCountsAsAnEmptyStamp() {
        arrive(plain(new VectorClock()));
        arrive(plain(new VectorClock()));
        arrive(plain(new VectorClock().advanceTo(ORDERS_0, 3)));
        arrive(tagged(new VectorClock()));
        arrive(new RecordHeaders());
        metrics.recordCounts();

        assertThat(count(MetricNames.RECORDS_EMPTY_STAMP_TOTAL)).isEqualTo(2.0);
        assertThat(count(MetricNames.RECORDS_UNSTAMPED_TOTAL)).isEqualTo(1.0);
    }

    private void arrive(RecordHeaders headers) {
        CausalHeaders.read(headers, stamps);
        checks.claims(stamps, new At(PAYMENTS, 0, 1));
    }

    private static RecordHeaders plain(VectorClock clock) {
        RecordHeaders h = new RecordHeaders();
        CausalHeaders.writeClock(h, clock);
        return h;
    }

    private static RecordHeaders tagged(VectorClock clock) {
        RecordHeaders h = new RecordHeaders();
        CausalHeaders.write(h, new SendStamp(clock, Senders.of("app", "intake", 0), 0));
        return h;
    }

    private double count(String metric) {
        return registry.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals(metric) && PAYMENTS.equals(e.getKey().tags().get("topic")))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .findFirst().orElseThrow();
    }
}
