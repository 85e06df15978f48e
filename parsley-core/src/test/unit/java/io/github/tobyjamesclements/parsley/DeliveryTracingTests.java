package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.LocalStamps.claiming;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link DeliveryObserver} hook on a real Kafka Streams host (the test driver, its wall clock
 * mocked): what a held record was read with, how long it was held and what for reach the
 * observer at its delivery, and what the observer writes reaches the emissions.
 */
class DeliveryTracingTests {

    private static final Topic<String, String> ORDERS = Topic.of("orders", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> PAYMENTS = Topic.of("payments", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> NOTIFICATIONS = Topic.of("notifications", Codec.utf8(), Codec.utf8());
    private static final String TRACE = "trace";

    /** This test's own state directory: concurrent runs (PIT's minions, other builds) share the default one. */
    @TempDir
    Path stateDir;

    /** Records every delivery and copies its trace header onto each emission, as a tracer would. */
    private static final class Recording implements DeliveryObserver {

        final List<Delivered> delivered = new ArrayList<>();
        final List<String> events = new ArrayList<>();

        @Override
        public Scope open(Delivered d) {
            delivered.add(d);
            Header trace = d.headers().lastHeader(TRACE);
            return new Scope() {
                @Override
                public void emitting(String topic, Headers headers) {
                    headers.add(TRACE, trace == null ? "none".getBytes(StandardCharsets.UTF_8) : trace.value());
                }

                @Override
                public void failed(Throwable failure) {
                    events.add("failed " + d.offset());
                }

                @Override
                public void close() {
                    events.add("closed " + d.topic() + " " + d.offset());
                }
            };
        }
    }

    private static Stage notifier() {
        return Stage.named("notifier")
                .on(ORDERS, m -> List.of(NOTIFICATIONS.send(m.key(), "order " + m.value())))
                .on(PAYMENTS, m -> {
                    if (m.value().equals("boom")) {
                        throw new IllegalStateException("handler failed");
                    }
                    return List.of(NOTIFICATIONS.send(m.key(), "payment " + m.value()));
                })
                .into(NOTIFICATIONS)
                .build();
    }

    private TopologyTestDriver driver(DeliveryObserver observer) {
        Properties p = new Properties();
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "shop");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return new TopologyTestDriver(Parsley.named("shop", notifier()).withDeliveryObserver(observer).testTopology(),
                p, Instant.ofEpochMilli(1_000_000));
    }

    @Test
    void heldRecordsReachTheObserverWithTheirHeadersHoldTimeAndWhatTheHeadWaitedFor() {
        Recording observer = new Recording();
        try (TopologyTestDriver driver = driver(observer)) {
            TestInputTopic<String, String> orders = input(driver, "orders");
            TestInputTopic<String, String> payments = input(driver, "payments");
            payments.pipeInput(new TestRecord<>("c1", "p0", headers(claiming("orders", 0), "t-p0")));
            driver.advanceWallClockTime(Duration.ofMillis(10));
            payments.pipeInput(new TestRecord<>("c1", "p1", headers(new RecordHeaders(), "t-p1")));
            driver.advanceWallClockTime(Duration.ofMillis(5));
            assertThat(observer.delivered).isEmpty();

            orders.pipeInput(new TestRecord<>("c1", "o0", headers(new RecordHeaders(), "t-o0")));

            assertThat(observer.delivered).extracting(DeliveryObserver.Delivered::topic,
                    DeliveryObserver.Delivered::offset, d -> trace(d.headers()), DeliveryObserver.Delivered::heldFor)
                    .containsExactly(
                            tuple("orders", 0L, "t-o0", Duration.ZERO),
                            tuple("payments", 0L, "t-p0", Duration.ofMillis(15)),
                            tuple("payments", 1L, "t-p1", Duration.ofMillis(5)));
            assertThat(observer.delivered.get(0).waitedFor()).isEmpty();
            for (DeliveryObserver.Delivered held : observer.delivered.subList(1, 3)) {
                assertThat(held.stage()).isEqualTo("notifier");
                assertThat(held.waitedFor()).singleElement().satisfies(c -> {
                    assertThat(c.topic()).isEqualTo("orders");
                    assertThat(c.claimed()).isZero();
                    assertThat(c.sender()).isNull();
                });
            }
            assertThat(observer.events).containsExactly("closed orders 0", "closed payments 0", "closed payments 1");
            var out = driver.createOutputTopic("notifications", new StringDeserializer(), new StringDeserializer())
                    .readRecordsToList();
            assertThat(out).extracting(r -> r.value() + " " + trace(r.headers()))
                    .containsExactly("order o0 t-o0", "payment p0 t-p0", "payment p1 t-p1");
            assertThat(out).allSatisfy(r -> assertThat(r.headers().lastHeader(CausalHeaders.CLOCK)).isNotNull());
        }
    }

    @Test
    void aFailedDeliveryIsReportedAndClosedBeforeTheTaskFails() {
        Recording observer = new Recording();
        try (TopologyTestDriver driver = driver(observer)) {
            TestInputTopic<String, String> payments = input(driver, "payments");
            assertThatThrownBy(() -> payments.pipeInput("c1", "boom")).hasRootCauseMessage("handler failed");
            assertThat(observer.events).containsExactly("failed 0", "closed payments 0");
        }
    }

    @Test
    void withoutAnObserverTheHostKeepsNothingPerRecord() {
        Delivery delivery = new HeldEntry(new Channel(LocalTopicCatalog.idOf("orders"), 0), 7, new VectorClock(), null, -1,
                null, null, 0);
        RecordHeaders headers = headers(new RecordHeaders(), "t");
        DeliveryTracing tracing = new DeliveryTracing(DeliveryObserver.NONE, "notifier", null, null, null);
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int calls = 200_000;
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < calls; i++) {
            tracing.read(delivery.channel(), i, headers);
            DeliveryObserver.Scope scope = tracing.open(delivery, "orders");
            scope.emitting("notifications", headers);
            scope.close();
            tracing.fed(delivery.channel(), i);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        // One object per call would be at least 16 bytes x 200,000; the bound leaves room for the
        // measurement itself and the JIT's bookkeeping only.
        assertThat(allocated).as("bytes allocated by %s no-op delivery cycles", calls).isLessThan(100_000);
        assertThat(headers.lastHeader(TRACE)).isNotNull();
    }

    private static TestInputTopic<String, String> input(TopologyTestDriver driver, String topic) {
        return driver.createInputTopic(topic, new StringSerializer(), new StringSerializer());
    }


    private static RecordHeaders headers(RecordHeaders headers, String trace) {
        headers.add(TRACE, trace.getBytes(StandardCharsets.UTF_8));
        return headers;
    }

    private static String trace(Headers headers) {
        Header h = headers.lastHeader(TRACE);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
