package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Streams host's self-checks (protocol.md §11, F11-F14): a task that does not run
 * {@code exactly_once_v2}, a task fed without the captured consumer positions its liveness
 * depends on, a record whose coordinate is unknown, and a record from a topic or partition the
 * task does not consume each fail the task, naming the stage and what to do, before anything is
 * delivered. F11 and F12 run against a real cluster only; a catalog that claims to be
 * broker-backed triggers them here without one.
 */
class AdapterSelfCheckTests {

    private static final String IN = "adapter-check-in";
    private static final String OUT = "adapter-check-out";
    private static final Topic<String, String> SOURCE = Topic.of(IN, Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> SINK = Topic.of(OUT, Codec.utf8(), Codec.utf8());
    private static final Stage RELAY = Stage.named("relay")
            .on(SOURCE, m -> List.of(SINK.send(m.key(), m.value())))
            .into(SINK)
            .build();

    @TempDir
    Path stateDir;

    @Test
    void taskNotRunningExactlyOnceV2FailsAtInitNamingTheStageTheGuaranteeAndTheWayToStart() {
        Properties atLeastOnce = props(StreamsConfig.AT_LEAST_ONCE);

        assertThatThrownBy(() -> new TopologyTestDriver(brokerBackedTopology(), atLeastOnce).close())
                .rootCause()
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Stage task is not running exactly_once_v2; stage=relay")
                .hasMessageContaining("processing.guarantee=" + StreamsConfig.AT_LEAST_ONCE)
                .hasMessageContaining("start the application through Parsley.streams");
    }

    @Test
    void firstRecordWithoutCapturedConsumerPositionsFailsNamingItsCoordinate() {
        try (TopologyTestDriver driver = new TopologyTestDriver(brokerBackedTopology(),
                props(StreamsConfig.EXACTLY_ONCE_V2))) {
            TestInputTopic<String, String> in = driver.createInputTopic(IN, new StringSerializer(),
                    new StringSerializer());

            assertThatThrownBy(() -> in.pipeInput("k", "v"))
                    .rootCause()
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("No captured consumer positions for a stage's source; stage=relay")
                    .hasMessageContaining("topic=" + IN + ", partition=0, offset=0")
                    .hasMessageContaining("start the application through Parsley.streams");
            assertThat(driver.createOutputTopic(OUT, new StringDeserializer(), new StringDeserializer()).isEmpty())
                    .isTrue();
        }
    }

    @Test
    void firstRecordWithCapturedConsumerPositionsIsDelivered() {
        TopicPartition tp = new TopicPartition(IN, 0);
        MockConsumer<byte[], byte[]> mock = new MockConsumer<>("earliest");
        Consumer<byte[], byte[]> captured = PositionCapture.wrap(mock);
        captured.subscribe(List.of(IN), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            }
        });
        mock.rebalance(List.of(tp));
        mock.updateBeginningOffsets(Map.of(tp, 0L));
        mock.addRecord(new ConsumerRecord<>(IN, 0, 0, bytes("k"), bytes("v")));
        try (TopologyTestDriver driver = new TopologyTestDriver(brokerBackedTopology(),
                props(StreamsConfig.EXACTLY_ONCE_V2))) {
            captured.poll(Duration.ZERO);
            assertThat(PositionCapture.view(tp)).isNotNull();

            driver.createInputTopic(IN, new StringSerializer(), new StringSerializer()).pipeInput("k", "v");

            assertThat(driver.createOutputTopic(OUT, new StringDeserializer(), new StringDeserializer())
                    .readValuesToList()).containsExactly("v");
        } finally {
            // the views live on this thread, which runs other test classes next
            mock.rebalance(List.of());
            assertThat(PositionCapture.view(tp)).isNull();
        }
    }

    @Test
    void recordWithoutMetadataFailsNamingTheStage() {
        Harness h = new Harness();

        assertThatThrownBy(() -> h.processor.process(record()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Record without metadata; stage=relay")
                .hasMessageContaining("the coordinate of a causal record must be known");
        assertThat(h.context.forwarded()).isEmpty();
    }

    @Test
    void recordFromATopicTheStageDoesNotConsumeFailsNamingItAndTheExpectedTopics() {
        Harness h = new Harness();
        h.context.setRecordMetadata("elsewhere", 0, 7);

        assertThatThrownBy(() -> h.processor.process(record()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Record from unexpected source; stage=relay, topic=elsewhere, partition=0")
                .hasMessageContaining("expected topics=[" + IN + "]");
        assertThat(h.context.forwarded()).isEmpty();
    }

    @Test
    void recordFromAnotherPartitionThanTheTasksFailsNamingIt() {
        Harness h = new Harness();
        h.context.setRecordMetadata(IN, 1, 7);

        assertThatThrownBy(() -> h.processor.process(record()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Record from unexpected source; stage=relay, topic=" + IN + ", partition=1");
        assertThat(h.context.forwarded()).isEmpty();
    }

    @Test
    void recordFromTheTasksOwnPartitionIsDelivered() {
        Harness h = new Harness();
        h.context.setRecordMetadata(IN, 0, 7);

        h.processor.process(record());

        assertThat(h.context.forwarded()).singleElement()
                .satisfies(f -> assertThat(f.childName()).as("the relay's one sink is its processor's only child,"
                        + " forwarded to without a lookup by name (Assembly.soleSink)").isEmpty());
    }

    /** One task of the relay stage on partition 0, initialised on Kafka's mock context and broker-less wiring. */
    private final class Harness {

        final MockProcessorContext<byte[], byte[]> context = new MockProcessorContext<>(props(
                StreamsConfig.EXACTLY_ONCE_V2), new TaskId(0, 0), stateDir.toFile());
        final CausalProcessor processor = new CausalProcessor("shop", RELAY,
                FixedTopicCatalog.local(List.of(IN, OUT)), HoldBoard.timedByTasks(), null, new ReadViews());

        Harness() {
            context.setCurrentSystemTimeMs(1_000);
            KeyValueStore<Bytes, byte[]> store = PersistingStore.builder(
                    Stores.inMemoryKeyValueStore(Assembly.protocolStore(RELAY)))
                    .withCachingDisabled().withLoggingDisabled().build();
            store.init(context.getStateStoreContext(), store);
            context.addStateStore(store);
            processor.init(context);
        }
    }

    private static Record<byte[], byte[]> record() {
        return new Record<>(bytes("k"), bytes("v"), 0L);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static Topology brokerBackedTopology() {
        return Assembly.build("shop", List.of(RELAY), FixedTopicCatalog.brokerBacked(List.of(IN, OUT)),
                HoldBoard.timedByTasks(), null);
    }

    private Properties props(String guarantee) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "shop");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return p;
    }
}
