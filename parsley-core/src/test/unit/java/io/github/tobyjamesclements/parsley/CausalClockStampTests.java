package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.ClockCodecTests.MIXED;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.ONE_OFFSET;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.T1;
import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * What a plain client's stamp is on the wire (protocol.md §6.6, wire-format.md): one untagged
 * version-2 {@code vc} header, and a stage's sender tag copied onto a plain send is dropped.
 */
class CausalClockStampTests {

    private final CausalClock clock = new CausalClock(topic -> T1);

    @Test
    void aPlainClientStampIsTheUntaggedGoldenBytes() {
        clock.recordProduced(new RecordMetadata(new TopicPartition("orders", 7), 42, 0, 0, 0, 0));
        Headers headers = new RecordHeaders();

        clock.stamp(headers);

        assertThat(headers.toArray()).hasSize(1);
        assertThat(headers.lastHeader(CausalHeaders.CLOCK).value()).isEqualTo(ONE_OFFSET.bytes());
        assertThat(CausalHeaders.sender(headers)).isEmpty();
        assertThat(CausalHeaders.seq(headers)).isEmpty();
    }

    @Test
    void stampingOverACopiedStageRecordDropsItsSenderTagAndKeepsItsClaims() {
        clock.recordProduced(new RecordMetadata(new TopicPartition("orders", 3), 9, 0, 0, 0, 0));
        Headers copied = new RecordHeaders().add(CausalHeaders.CLOCK, MIXED.bytes());

        clock.stampOver(copied, CausalHeaders.read(copied, "copy").clock());

        CausalHeaders.Read read = CausalHeaders.read(copied, "copy");
        assertThat(read.sender()).as("the copy is not the stage's record: its tag would be false").isNull();
        assertThat(read.seq()).isEqualTo(-1);
        assertThat(read.clock()).isEqualTo(VectorClock.copyOf(MIXED.clock().get())
                .advanceTo(new Channel(T1, 3), 9));
    }
}
