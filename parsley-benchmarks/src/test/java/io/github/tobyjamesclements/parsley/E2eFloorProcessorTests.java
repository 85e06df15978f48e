package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.streams.processor.StreamPartitioner;
import org.junit.jupiter.api.Test;

class E2eFloorProcessorTests {

    @Test
    void theStampIsAsLongAsASingleSourceCopysAndDecodesAsOne() {
        SendStamp decoded = ClockCodec.decodeStamp(E2eFloorProcessor.STAMP);

        assertThat(E2eFloorProcessor.STAMP).hasSize(E2eFloorProcessor.STAMP_BYTES);
        assertThat(decoded.clock().offsetCount()).isEqualTo(1);
        assertThat(decoded.clock().seqCount()).isZero();
        assertThat(decoded.sender()).isNotNull();
    }

    @Test
    void thePartitionerChoosesThePartitionKafkasProducerWouldForTheKey() {
        StreamPartitioner<byte[], byte[]> partitioner = StampingDoor.partitioner("out", 4);
        for (int k = 0; k < 200; k++) {
            byte[] key = String.format("key-%05d", k).getBytes(StandardCharsets.UTF_8);

            Optional<Set<Integer>> answer = partitioner.partitions("out", key, new byte[0], 4);

            assertThat(answer).contains(Set.of(BuiltInPartitioner.partitionForKey(key, 4)));
        }
    }

    @Test
    void thePartitionerRefusesAChangedPartitionCountNamingTheTopic() {
        StreamPartitioner<byte[], byte[]> partitioner = StampingDoor.partitioner("out", 4);
        byte[] key = "key-00001".getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> partitioner.partitions("out", key, new byte[0], 8))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("topic=out")
                .hasMessageContaining("now=8");
    }
}
