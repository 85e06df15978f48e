package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host's half of the stamp's bound (protocol.md §10.2, H8): a stamp that coarsening cannot
 * bring under the stage's bound is refused before anything is sent, naming the stage, the
 * destination and the claims by topic; one that coarsening brings under it is sent, and counted.
 */
class StampRefusalTests {

    private static final Topic<String, String> ORDERS = Topic.of("orders", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> NOTIFICATIONS = Topic.of("notifications", Codec.utf8(), Codec.utf8());

    @TempDir
    Path stateDir;

    private static Stage notifier(int maxStampBytes) {
        return Stage.named("notifier").on(ORDERS, m -> List.of(NOTIFICATIONS.send(m.key(), m.value())))
                .into(NOTIFICATIONS).maxStampBytes(maxStampBytes).build();
    }

    private TopologyTestDriver driver() {
        return driver(Stage.MIN_MAX_STAMP_BYTES);
    }

    private TopologyTestDriver driver(int maxStampBytes) {
        Properties p = new Properties();
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "shop");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return new TopologyTestDriver(Parsley.named("shop", notifier(maxStampBytes)).testTopology(), p);
    }

    /** An upstream record's stamp with offset claims on {@code partitions} partitions of a topic outside the application. */
    private static RecordHeaders upstreamClaims(int partitions, int senders) {
        Random random = new Random(partitions);
        VectorClock clock = new VectorClock();
        java.util.UUID upstream = LocalTopicCatalog.idOf("upstream");
        for (int p = 0; p < partitions; p++) {
            clock.advanceTo(new Channel(upstream, p), random.nextLong() >>> 1);
        }
        for (int s = 0; s < senders; s++) {
            for (int p = 0; p < 3; p++) {
                clock.advanceSeq(new SeqKey(new Channel(LocalTopicCatalog.idOf("feed"), p),
                        Senders.of("upstream-app", "spreader" + s, 0)), 10 + p);
            }
        }
        RecordHeaders headers = new RecordHeaders();
        headers.add(CausalHeaders.CLOCK, ClockCodec.encode(clock));
        return headers;
    }

    @Test
    void aStampOverTheBoundEvenCoarsenedIsRefusedBeforeAnythingIsSent() {
        try (TopologyTestDriver driver = driver()) {
            TestInputTopic<String, String> orders =
                    driver.createInputTopic("orders", new StringSerializer(), new StringSerializer());
            TestOutputTopic<String, String> out =
                    driver.createOutputTopic("notifications", new StringDeserializer(), new StringDeserializer());

            assertThatThrownBy(() -> orders.pipeInput(new TestRecord<>("c1", "o1", upstreamClaims(200, 0))))
                    .hasStackTraceContaining("Stamp over its bound after coarsening, not sent; stage=notifier,"
                            + " topic=notifications, partition=0")
                    .hasStackTraceContaining("maxStampBytes=1024")
                    .hasStackTraceContaining(LocalTopicCatalog.idOf("upstream") + "=200 offset / 0 sequence")
                    .hasStackTraceContaining("orders=1 offset / 0 sequence")
                    .hasStackTraceContaining("raise the stage's maxStampBytes (parsley.max-stamp-bytes)");
            assertThat(out.isEmpty()).isTrue();
        }
    }

    @Test
    void aStampThatCoarseningBringsUnderTheBoundIsSentAndCounted() {
        try (TopologyTestDriver driver = driver()) {
            TestInputTopic<String, String> orders =
                    driver.createInputTopic("orders", new StringSerializer(), new StringSerializer());
            TestOutputTopic<String, String> out =
                    driver.createOutputTopic("notifications", new StringDeserializer(), new StringDeserializer());

            orders.pipeInput(new TestRecord<>("c1", "o1", upstreamClaims(10, 40)));

            TestRecord<String, String> sent = out.readRecord();
            VectorClock stamp = ClockCodec.decodeStamp(sent.headers().lastHeader(CausalHeaders.CLOCK).value()).clock();
            assertThat(sent.headers().lastHeader(CausalHeaders.CLOCK).value().length).isLessThanOrEqualTo(1024);
            assertThat(stamp.seqs()).as("40 stages' claims on 3 partitions each, one whole-topic claim per stage")
                    .hasSize(40).allSatisfy((k, v) -> assertThat(k.channel().isWholeTopic()).isTrue())
                    .allSatisfy((k, v) -> assertThat(v).isEqualTo(12L));
            assertThat(driver.metrics().entrySet()).anySatisfy(e -> {
                assertThat(e.getKey().name()).isEqualTo(MetricNames.STAMPS_COARSENED_TOTAL);
                assertThat(e.getValue().metricValue()).isEqualTo(1.0);
            });
        }
    }

    @Test
    void aStampOfExactlyTheBoundIsSent() {
        // offset claims only: coarsening cannot shrink them, so the bound alone decides
        RecordHeaders upstream = upstreamClaims(150, 0);
        int length;
        try (TopologyTestDriver driver = driver(Stage.MAX_MAX_STAMP_BYTES)) {
            driver.createInputTopic("orders", new StringSerializer(), new StringSerializer())
                    .pipeInput(new TestRecord<>("c1", "o1", upstream));
            length = driver.createOutputTopic("notifications", new StringDeserializer(), new StringDeserializer())
                    .readRecord().headers().lastHeader(CausalHeaders.CLOCK).value().length;
        }
        assertThat(length).as("a stamp the smallest bound allows").isGreaterThan(Stage.MIN_MAX_STAMP_BYTES);

        try (TopologyTestDriver driver = driver(length)) {
            driver.createInputTopic("orders", new StringSerializer(), new StringSerializer())
                    .pipeInput(new TestRecord<>("c1", "o1", upstream));
            TestRecord<String, String> sent = driver.createOutputTopic("notifications", new StringDeserializer(),
                    new StringDeserializer()).readRecord();
            assertThat(sent.headers().lastHeader(CausalHeaders.CLOCK).value()).hasSize(length);
        }
    }
}
