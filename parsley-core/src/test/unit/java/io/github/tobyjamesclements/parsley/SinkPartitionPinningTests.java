package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.processor.StreamPartitioner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A sink's partition count is pinned when the topology is assembled (protocol.md §12.2, H4): the
 * stamping door chose and stamped a partition out of that count, so a sink that gains or loses
 * partitions while the application runs must fail the send instead of writing the record to a
 * partition other than the one its stamp names.
 */
class SinkPartitionPinningTests {

    private static final String SINK = "notices";

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 6})
    void sinkWhosePartitionCountChangedFailsTheSendNamingBothCountsAndWhatToDo(int now) {
        StreamPartitioner<byte[], byte[]> partitioner = StampingDoor.partitioner(SINK, 3);

        assertThatThrownBy(() -> partitioner.partitions(SINK, key("c1"), null, now))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Partition count of a sink changed while running")
                .hasMessageContaining("topic=" + SINK + ", resolved=3, now=" + now)
                .hasMessageContaining("restart the application after repartitioning");
    }

    @Test
    void sinkAtItsResolvedCountGetsThePartitionTheDoorStamped() {
        StreamPartitioner<byte[], byte[]> partitioner = StampingDoor.partitioner(SINK, 3);

        for (String k : new String[] {"c1", "c2", "c3", "c4", "c5"}) {
            assertThat(partitioner.partitions(SINK, key(k), null, 3))
                    .isEqualTo(Optional.of(Set.of(StampingDoor.partition(key(k), 3))));
        }
        assertThat(partitioner.partitions(SINK, null, null, 3)).isEqualTo(Optional.of(Set.of(0)));
    }

    private static byte[] key(String k) {
        return k.getBytes(StandardCharsets.UTF_8);
    }
}
