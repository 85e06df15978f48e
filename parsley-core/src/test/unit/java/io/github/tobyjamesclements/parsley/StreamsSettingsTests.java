package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.junit.jupiter.api.Test;

/** The one setting Parsley defaults rather than forces: {@code max.task.idle.ms}. */
class StreamsSettingsTests {

    private static final Topic<String, String> ORDERS = Topic.of("orders", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> PAYMENTS = Topic.of("payments", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> AUDIT = Topic.of("audit", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> SHIPPING = Topic.of("shipping", Codec.utf8(), Codec.utf8());

    private static final Stage AUDITOR = Stage.named("auditor")
            .on(PAYMENTS, m -> List.of(AUDIT.send(m.key(), m.value()))).into(AUDIT).build();
    private static final Stage SHIPPER = Stage.named("shipper")
            .on(ORDERS, m -> List.of(SHIPPING.send(m.key(), m.value()))).into(SHIPPING).build();
    private static final Stage PAIRS = Stage.named("pairs")
            .on(ORDERS, m -> List.of(AUDIT.send(m.key(), m.value())))
            .on(PAYMENTS, m -> List.of(AUDIT.send(m.key(), m.value()))).into(AUDIT).build();

    private static Topology topology(Stage... stages) {
        return Parsley.named("shop", stages).testTopology();
    }

    @Test
    void tasksOfOnePartitionEachRunWithoutIdlingAndTheCallersPropertiesAreLeftAlone() {
        Properties mine = new Properties();
        mine.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");

        Properties used = StreamsSettings.withTaskIdle(mine, topology(AUDITOR, SHIPPER));

        assertThat(used).containsEntry(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "-1")
                .containsEntry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");
        assertThat(new StreamsConfig(withServers(used)).getLong(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG))
                .isEqualTo(StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        assertThat(mine).doesNotContainKey(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG);
    }

    @Test
    void aStageOfTwoTopicsKeepsKafkaStreamsIdling() {
        assertThat(StreamsSettings.withTaskIdle(new Properties(), topology(PAIRS)))
                .doesNotContainKey(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG);
        // one such stage is enough: the setting is the application's, not a task's
        assertThat(StreamsSettings.withTaskIdle(new Properties(), topology(SHIPPER, PAIRS)))
                .doesNotContainKey(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG);
    }

    @Test
    void twoStagesOnOneTopicShareItsSourceAndStillReadOnePartitionPerTask() {
        Stage alsoOnPayments = Stage.named("notifier")
                .on(PAYMENTS, m -> List.of(SHIPPING.send(m.key(), m.value()))).into(SHIPPING).build();

        assertThat(StreamsSettings.onePartitionPerTask(topology(AUDITOR, alsoOnPayments))).isTrue();
    }

    @Test
    void aTickingStageReadsItsTickTopicBesideItsSourceAndKeepsIdling() {
        Stage ticking = Stage.named("shipper").on(ORDERS, m -> List.of(SHIPPING.send(m.key(), m.value())))
                .into(SHIPPING).ticks(Duration.ofSeconds(1), t -> List.of()).build();

        assertThat(StreamsSettings.onePartitionPerTask(topology(ticking))).isFalse();
    }

    @Test
    void aValueTheCallerSetWinsWhateverTheTopology() {
        Properties mine = new Properties();
        mine.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "250");

        assertThat(StreamsSettings.withTaskIdle(mine, topology(AUDITOR)))
                .containsEntry(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "250");
    }

    private static Properties withServers(Properties p) {
        Properties q = new Properties();
        q.putAll(p);
        q.put(StreamsConfig.APPLICATION_ID_CONFIG, "shop");
        q.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        return q;
    }
}
