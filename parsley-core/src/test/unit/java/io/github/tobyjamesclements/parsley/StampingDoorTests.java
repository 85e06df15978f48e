package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The stamping door resolves each sink once and reuses it for later emissions, and still refuses
 * every emission to an undeclared topic: also once declared sinks are resolved, and in a step
 * whose earlier emissions were to a declared sink, which then sends nothing. A keyed emission goes
 * to the partition Kafka's own producer would choose for its key.
 */
class StampingDoorTests {

    private static final Topic<String, String> ORDERS = Topic.of("orders", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> NOTIFICATIONS = Topic.of("notifications", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> AUDIT = Topic.of("audit", Codec.utf8(), Codec.utf8());

    /** This test's own state directory: concurrent runs (PIT's minions, other builds) share the default one. */
    @TempDir
    Path stateDir;

    /** Notifies each order; an order named "stray" is also sent to a topic the stage never declared. */
    private static Stage notifier() {
        return Stage.named("notifier")
                .on(ORDERS, m -> m.value().equals("stray")
                        ? List.of(NOTIFICATIONS.send(m.key(), m.value()), AUDIT.send(m.key(), m.value()))
                        : List.of(NOTIFICATIONS.send(m.key(), m.value())))
                .into(NOTIFICATIONS)
                .build();
    }

    /**
     * A keyed emission lands where Kafka's own producer would put the same key, so a stage's output
     * and a plain producer's record of one key share a partition; seeded, replayable by the seed.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1L, 2L, 3L})
    void aKeyGoesToThePartitionKafkasDefaultPartitionerChooses(long seed) {
        System.out.println("StampingDoorTests seed=" + seed);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 1_000; i++) {
            byte[] key = new byte[1 + random.nextInt(32)];
            random.nextBytes(key);
            int partitions = 1 + random.nextInt(64);
            assertThat(StampingDoor.partition(key, partitions)).as("seed=%d, key %d of %d partitions", seed, i,
                    partitions).isEqualTo(BuiltInPartitioner.partitionForKey(key, partitions));
        }
        assertThat(StampingDoor.partition(null, 8)).as("a null key goes to partition 0").isZero();
    }

    @Test
    void laterEmissionsReuseTheResolvedSinkAndAnUndeclaredOneStillFailsTheWholeStep() {
        Properties p = new Properties();
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "shop");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        try (TopologyTestDriver driver = new TopologyTestDriver(Parsley.named("shop", notifier()).testTopology(), p)) {
            TestInputTopic<String, String> orders =
                    driver.createInputTopic("orders", new StringSerializer(), new StringSerializer());
            TestOutputTopic<String, String> out =
                    driver.createOutputTopic("notifications", new StringDeserializer(), new StringDeserializer());
            orders.pipeInput("c1", "o0");
            orders.pipeInput("c1", "o1");

            assertThatThrownBy(() -> orders.pipeInput(new TestRecord<>("c1", "stray")))
                    .rootCause().isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Emission to an undeclared sink; stage=notifier, topic=audit,"
                            + " declared sinks=[notifications]");

            List<TestRecord<String, String>> sent = out.readRecordsToList();
            assertThat(sent).extracting(TestRecord::value).containsExactly("o0", "o1");
            assertThat(sent).extracting(r -> CausalHeaders.seq(r.headers()).orElseThrow())
                    .as("one sink channel, its sequence counted across emissions").containsExactly(0L, 1L);
        }
    }
}
