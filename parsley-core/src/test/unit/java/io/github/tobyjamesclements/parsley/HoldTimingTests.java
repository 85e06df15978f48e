package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.LocalStamps.claiming;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Holds of a few milliseconds, timed on the test driver's mocked wall clock, which moves only when
 * the test advances it and never far enough to fire the 500 ms sweep: every age read here is the
 * hold's true age, computed when read, not a sample.
 */
class HoldTimingTests {

    private static final Topic<String, String> ORDERS = Topic.of("orders", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> PAYMENTS = Topic.of("payments", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> NOTIFICATIONS = Topic.of("notifications", Codec.utf8(), Codec.utf8());

    private static final Instant START = Instant.ofEpochMilli(1_000_000);

    /** This test's own state directory: concurrent runs (PIT's minions, other builds) share the default one. */
    @TempDir
    Path stateDir;

    /** The host's wall clock, moved in step with the driver's, which times the gauges' reads. */
    private final AtomicLong wallClock = new AtomicLong(START.toEpochMilli());
    private final HoldBoard board = HoldBoard.timedBy(wallClock::get);
    private TopologyTestDriver driver;
    private TestInputTopic<String, String> orders;
    private TestInputTopic<String, String> payments;
    private TestOutputTopic<String, String> notifications;

    @BeforeEach
    void start() {
        LocalTopicCatalog catalog = new LocalTopicCatalog(Set.of("orders", "payments", "notifications"));
        open(new TopologyTestDriver(Assembly.build("shop", List.of(notifier()), catalog, board, null), props(),
                START));
    }

    private void open(TopologyTestDriver d) {
        driver = d;
        orders = driver.createInputTopic("orders", new StringSerializer(), new StringSerializer());
        payments = driver.createInputTopic("payments", new StringSerializer(), new StringSerializer());
        notifications = driver.createOutputTopic("notifications", new StringDeserializer(), new StringDeserializer());
    }

    @AfterEach
    void close() {
        driver.close();
    }

    private static Stage notifier() {
        return Stage.named("notifier")
                .on(ORDERS, m -> List.of(NOTIFICATIONS.send(m.key(), "order " + m.value())))
                .on(PAYMENTS, m -> List.of(NOTIFICATIONS.send(m.key(), "payment " + m.value())))
                .into(NOTIFICATIONS)
                .build();
    }

    private void advance(long millis) {
        wallClock.addAndGet(millis);
        driver.advanceWallClockTime(Duration.ofMillis(millis));
    }

    @Test
    void aTenMillisecondHoldReadsTenMillisecondsWhileHeld() {
        payments.pipeInput(new TestRecord<>("c1", "p0", claiming("orders", 0)));

        assertThat(metric("records-held", null)).isEqualTo(1.0);
        assertThat(metric("records-held-age-max-ms", null)).isZero();
        assertThat(board.snapshot()).singleElement().satisfies(h -> {
            assertThat(h.topic()).isEqualTo("payments");
            assertThat(h.heldFor()).isZero();
        });

        advance(10);
        assertThat(metric("records-held-age-max-ms", null)).isEqualTo(10.0);
        assertThat(board.snapshot()).singleElement().satisfies(h ->
                assertThat(h.heldFor()).isEqualTo(Duration.ofMillis(10)));

        advance(25);
        assertThat(metric("records-held-age-max-ms", null)).isEqualTo(35.0);
        assertThat(board.snapshot().get(0).heldFor()).isEqualTo(Duration.ofMillis(35));

        orders.pipeInput("c1", "o0");

        assertThat(notifications.readValuesToList()).containsExactly("order o0", "payment p0");
        assertThat(metric("records-held", null)).isZero();
        assertThat(metric("records-held-age-max-ms", null)).isZero();
        assertThat(board.snapshot()).isEmpty();
    }

    @Test
    void aRecordQueuedBehindAHeldHeadIsHeldFromWhenItWasQueued() {
        payments.pipeInput(new TestRecord<>("c1", "p0", claiming("orders", 0)));
        advance(10);
        payments.pipeInput(new TestRecord<>("c1", "p1", claiming("orders", 1)));
        advance(10);

        assertThat(metric("records-held", null)).isEqualTo(2.0);
        assertThat(metric("records-held-age-max-ms", null)).isEqualTo(20.0);
        assertThat(metric("records-held-age-max-ms", "payments")).isEqualTo(20.0);
        assertThat(metric("records-held-age-max-ms", "orders")).isZero();

        orders.pipeInput("c1", "o0");

        // p1 heads the queue only now, but it has been held since it arrived 10 ms ago.
        assertThat(notifications.readValuesToList()).containsExactly("order o0", "payment p0");
        assertThat(metric("records-held", null)).isEqualTo(1.0);
        assertThat(metric("records-held-age-max-ms", null)).isEqualTo(10.0);
        assertThat(metric("records-held-age-max-ms", "payments")).isEqualTo(10.0);
        assertThat(board.snapshot()).singleElement().satisfies(h -> {
            assertThat(h.offset()).isEqualTo(1);
            assertThat(h.heldFor()).isEqualTo(Duration.ofMillis(10));
        });
    }

    @Test
    void recordsHeldInOneMillisecondShareTheirStartAndALaterOneKeepsItsOwn() {
        payments.pipeInput(new TestRecord<>("c1", "p0", claiming("orders", 0)));
        payments.pipeInput(new TestRecord<>("c1", "p1", claiming("orders", 1)));
        advance(10);
        payments.pipeInput(new TestRecord<>("c1", "p2", claiming("orders", 2)));
        advance(10);
        assertThat(metric("records-held", null)).isEqualTo(3.0);

        orders.pipeInput("c1", "o0");

        assertThat(board.snapshot()).singleElement().satisfies(h -> {
            assertThat(h.offset()).isEqualTo(1);
            assertThat(h.heldFor()).as("held in the same millisecond as p0").isEqualTo(Duration.ofMillis(20));
        });
        assertThat(metric("records-held-age-max-ms", "payments")).isEqualTo(20.0);

        orders.pipeInput("c1", "o1");

        assertThat(notifications.readValuesToList())
                .containsExactly("order o0", "payment p0", "order o1", "payment p1");
        assertThat(board.snapshot()).singleElement().satisfies(h -> {
            assertThat(h.offset()).isEqualTo(2);
            assertThat(h.heldFor()).isEqualTo(Duration.ofMillis(10));
        });
        assertThat(metric("records-held-age-max-ms", null)).isEqualTo(10.0);
    }

    @Test
    void aRecordDeliveredOnArrivalIsNeverHeld() {
        orders.pipeInput("c1", "o0");
        advance(10);
        payments.pipeInput(new TestRecord<>("c1", "p0", claiming("orders", 0)));
        advance(10);

        assertThat(notifications.readValuesToList()).containsExactly("order o0", "payment p0");
        assertThat(metric("records-held", null)).isZero();
        assertThat(metric("records-held-age-max-ms", null)).isZero();
        assertThat(board.snapshot()).isEmpty();
    }

    @Test
    void theTestTopologyTimesHoldsOnTheDriversMockedClock() {
        driver.close();
        open(new TopologyTestDriver(Parsley.named("shop", notifier()).testTopology(), props(), START));

        payments.pipeInput(new TestRecord<>("c1", "p0", claiming("orders", 0)));
        driver.advanceWallClockTime(Duration.ofMillis(10));

        assertThat(metric("records-held-age-max-ms", null)).isEqualTo(10.0);
    }

    /** The task's {@code vc-metrics} value, or the per-topic one when {@code topic} is given. */
    private double metric(String name, String topic) {
        return driver.metrics().entrySet().stream()
                .filter(e -> {
                    MetricName n = e.getKey();
                    return n.group().equals(MetricNames.GROUP) && n.name().equals(name)
                            && (topic == null ? !n.tags().containsKey("topic") : topic.equals(n.tags().get("topic")));
                })
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .reduce((a, b) -> {
                    throw new AssertionError("More than one metric " + name + " for topic " + topic);
                })
                .orElseThrow(() -> new AssertionError("No metric " + name + " for topic " + topic));
    }


    private Properties props() {
        Properties p = new Properties();
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "shop");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return p;
    }
}
