package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.processor.StreamPartitioner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The tick topic's fail-closed checks (protocol.md §11, §12.5): its partition count must equal
 * the stage's widest source when the topology is assembled (F17: fewer leaves high tasks unable
 * to tick, more makes Kafka Streams create tasks that own no source), and the tick sink refuses a
 * key that is not the 4-byte task partition it routes by (F18).
 */
class TickTopicCheckTests {

    private static final Topic<String, String> ORDERS = Topic.of("orders", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> PAYMENTS = Topic.of("payments", Codec.utf8(), Codec.utf8());
    private static final String TICKS = "shop-ticker-ticks";

    private final Stage ticker = Stage.named("ticker")
            .on(ORDERS, m -> List.of())
            .on(PAYMENTS, m -> List.of())
            .ticks(Duration.ofSeconds(1), t -> List.of())
            .build();

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 12})
    void tickTopicNarrowerOrWiderThanTheWidestSourceIsRefusedWithTheCountToRecreateItWith(int tickPartitions) {
        FixedTopicCatalog catalog = catalog().withPartitions(TICKS, tickPartitions);

        assertThatThrownBy(() -> assemble(catalog))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Tick topic partition count must equal the stage's widest source")
                .hasMessageContaining("stage=ticker, tickTopic=" + TICKS + ", partitions=" + tickPartitions
                        + ", widest source=3")
                .hasMessageContaining("recreate the tick topic with 3 partitions");
    }

    @Test
    void tickTopicAsWideAsTheWidestSourceIsAssembled() {
        assertThat(assemble(catalog().withPartitions(TICKS, 3)).describe().subtopologies()).hasSize(1);
    }

    @Test
    void stageWithoutTicksNeedsNoTickTopic() {
        Stage quiet = Stage.named("ticker").on(ORDERS, m -> List.of()).build();

        assertThat(Assembly.build("shop", List.of(quiet), catalog(), HoldBoard.timedByTasks(), null)
                .describe().subtopologies()).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 3, 5, 8})
    void tickKeyThatIsNotFourBytesIsRefusedNamingTheTopicAndTheLength(int length) {
        StreamPartitioner<byte[], byte[]> partitioner = StampingDoor.tickPartitioner(TICKS);

        assertThatThrownBy(() -> partitioner.partitions(TICKS, new byte[length], null, 3))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Malformed tick key; topic=" + TICKS + ", length=" + length)
                .hasMessageContaining("expected 4 bytes");
    }

    @Test
    void nullTickKeyIsRefused() {
        assertThatThrownBy(() -> StampingDoor.tickPartitioner(TICKS).partitions(TICKS, null, null, 3))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Malformed tick key; topic=" + TICKS + ", length=null");
    }

    @Test
    void fourByteTickKeyRoutesToThePartitionItNames() {
        byte[] key = ByteBuffer.allocate(Integer.BYTES).putInt(2).array();

        assertThat(StampingDoor.tickPartitioner(TICKS).partitions(TICKS, key, null, 3)).isEqualTo(Optional.of(Set.of(2)));
    }

    private FixedTopicCatalog catalog() {
        return FixedTopicCatalog.brokerBacked(List.of("orders", "payments", TICKS))
                .withPartitions("orders", 3).withPartitions("payments", 2);
    }

    private org.apache.kafka.streams.Topology assemble(TopicCatalog catalog) {
        return Assembly.build("shop", List.of(ticker), catalog, HoldBoard.timedByTasks(), null);
    }
}
