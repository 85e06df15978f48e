package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * The console decoder prints what the console consumer would print for each header, given what
 * the console passes: the record's headers and one header's value array.
 */
class CausalHeaderDeserializerTests {

    private static final UUID ORDERS = UUID.fromString("01020304-0506-0708-090a-0b0c0d0e0f10");
    private static final UUID PAYMENTS = UUID.fromString("80000000-0000-0000-0000-000000000001");
    private static final UUID SENDER = new UUID(0x1112131415161718L, 3);

    private final CausalHeaderDeserializer decoder = new CausalHeaderDeserializer();

    @Test
    void aStageEmissionPrintsAsOneHeaderWithSenderSequenceAndClock() {
        VectorClock clock = new VectorClock().advanceTo(new Channel(ORDERS, 7), 42)
                .advanceTo(new Channel(PAYMENTS, 0), 3)
                .advanceSeq(new SeqKey(new Channel(ORDERS, 8), SENDER), 9);
        Headers headers = new RecordHeaders().add("traceparent", "00-abc-01".getBytes(StandardCharsets.UTF_8));
        CausalHeaders.write(headers, new SendStamp(clock, SENDER, 12));

        assertThat(printed(headers)).containsExactly(
                "traceparent:00-abc-01",
                "vc:sender=1112131415161718.3 seq=12 offsets=[" + kafka(PAYMENTS) + ":0@3 " + kafka(ORDERS)
                        + ":7@42] seqs=[" + kafka(ORDERS) + ":8/1112131415161718.3#9]");
    }

    @Test
    void aWholeTopicClaimPrintsAStarForItsPartition() {
        VectorClock clock = new VectorClock().advanceSeq(new SeqKey(Channel.wholeTopic(ORDERS), SENDER), 9)
                .advanceSeq(new SeqKey(new Channel(ORDERS, 0), SENDER), 4);
        Headers headers = new RecordHeaders();
        CausalHeaders.write(headers, new SendStamp(clock, SENDER, 12));

        assertThat(printed(headers)).containsExactly("vc:sender=1112131415161718.3 seq=12 offsets=[] seqs=["
                + kafka(ORDERS) + ":*/1112131415161718.3#9 " + kafka(ORDERS) + ":0/1112131415161718.3#4]");
    }

    @Test
    void plainClientStampPrintsItsClockAlone() {
        CausalClock clock = new CausalClock(topic -> ORDERS);
        clock.recordProduced(new org.apache.kafka.clients.producer.RecordMetadata(
                new org.apache.kafka.common.TopicPartition("orders", 2), 5, 0, 0, 0, 0));
        Headers headers = new RecordHeaders();
        clock.stamp(headers);

        assertThat(printed(headers)).containsExactly("vc:offsets=[" + kafka(ORDERS) + ":2@5] seqs=[]");
    }

    @Test
    void corruptParsleyHeadersPrintAnErrorMarkerInsteadOfThrowing() {
        Headers headers = new RecordHeaders().add(CausalHeaders.CLOCK, new byte[] {0x01, 0, 0})
                .add("trace", new byte[] {'t'}).add(CausalHeaders.CLOCK, new byte[] {0x03, 1});

        assertThat(printed(headers)).containsExactly(
                "vc:<corrupt: Unknown clock version 1; this build reads versions 2 and 3>",
                "trace:t",
                // version 3's flagged sequence section opens with a topic id, read eight bytes at a time
                "vc:<corrupt: Clock truncated at byte 2; needed 8 more>");
    }

    @Test
    void aValueNotFoundByIdentityIsNamedByContentAndUnknownBytesPrintAsUtf8() {
        byte[] empty = ClockCodec.encode(new VectorClock());
        Headers headers = new RecordHeaders().add(CausalHeaders.CLOCK, empty);

        assertThat(decoder.deserialize("t", headers, empty.clone())).isEqualTo("offsets=[] seqs=[]");
        assertThat(decoder.deserialize("t", headers, "x".getBytes(StandardCharsets.UTF_8))).isEqualTo("x");
        assertThat(decoder.deserialize("t", headers, (byte[]) null)).isEqualTo("null");
    }

    /** What the console prints for each header: its key, a colon, and the decoded value. */
    private List<String> printed(Headers headers) {
        List<String> lines = new ArrayList<>();
        for (Header h : headers) {
            lines.add(h.key() + ":" + decoder.deserialize("t", headers, h.value()));
        }
        return lines;
    }

    private static String kafka(UUID id) {
        return new Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits()).toString();
    }
}
