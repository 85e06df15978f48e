package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.ClockCodecTests.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * The header block a held record keeps for a dead-letter topic: its place at the end of the
 * envelope (absent for entries without it, so earlier stores restore unchanged), and the
 * {@link HeaderBlock} form itself, strict in both directions.
 */
class HeldEntryEnvelopeHeadersTests {

    /** The tagged golden of {@code ProtocolStoreTests} followed by a 3-byte block. */
    private static final String WITH_HEADERS_HEX = ProtocolStoreTests.TAGGED_HEX + " 00000003 AABBCC";

    /** One header {@code h} = {@code 01}, then {@code n} with a null value. */
    private static final String BLOCK_HEX = "00000002 00000001 68 00000001 01 00000001 6E FFFFFFFF";

    @Test
    void anEntryWithoutHeadersIsWhatEarlierBuildsWrote() {
        HeldEntry plain = HeldEntryEnvelope.decode(NodeRig.C, hex(ProtocolStoreTests.TAGGED_HEX));

        assertThat(plain.headers()).isNull();
        assertThat(HeldEntryEnvelope.encode(plain)).isEqualTo(hex(ProtocolStoreTests.TAGGED_HEX));
    }

    @Test
    void theHeaderBlockFollowsTheValueLengthPrefixed() {
        HeldEntry plain = HeldEntryEnvelope.decode(NodeRig.C, hex(ProtocolStoreTests.TAGGED_HEX));
        HeldEntry entry = new HeldEntry(plain.channel(), plain.offset(), plain.clock(), plain.sender(), plain.seq(), plain.key(),
                plain.value(), plain.timestamp(), hex("AABBCC"));

        assertThat(HeldEntryEnvelope.encode(entry)).isEqualTo(hex(WITH_HEADERS_HEX)).hasSize(76 + 7);
        ProtocolStoreTests.assertSameEntry(HeldEntryEnvelope.decode(NodeRig.C, hex(WITH_HEADERS_HEX)), entry);
    }

    @Test
    void emptyHeadersStayDistinctFromNone() {
        HeldEntry plain = HeldEntryEnvelope.decode(NodeRig.C, hex(ProtocolStoreTests.TAGGED_HEX));
        HeldEntry empty = new HeldEntry(plain.channel(), plain.offset(), plain.clock(), plain.sender(), plain.seq(), plain.key(),
                plain.value(), plain.timestamp(), new byte[0]);

        byte[] encoded = HeldEntryEnvelope.encode(empty);
        assertThat(encoded).isEqualTo(hex(ProtocolStoreTests.TAGGED_HEX + " 00000000"));
        assertThat(HeldEntryEnvelope.decode(NodeRig.C, encoded).headers()).isNotNull().isEmpty();
    }

    @Test
    void aNullHeaderBlockLengthIsCorrupt() {
        assertThatThrownBy(() -> HeldEntryEnvelope.decode(NodeRig.C, hex(ProtocolStoreTests.TAGGED_HEX + " FFFFFFFF")))
                .isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Malformed held-record envelope: null header block");
    }

    @Test
    void bytesAfterTheHeaderBlockAreCorrupt() {
        assertThatThrownBy(() -> HeldEntryEnvelope.decode(NodeRig.C, hex(WITH_HEADERS_HEX + " 00")))
                .isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Malformed held-record envelope: 1 trailing bytes");
    }

    @Test
    void everyPrefixLongerThanTheLegacyFormIsCorrupt() {
        byte[] full = hex(WITH_HEADERS_HEX);
        for (int length = 80; length < full.length; length++) {
            byte[] prefix = Arrays.copyOf(full, length);
            assertThatThrownBy(() -> HeldEntryEnvelope.decode(NodeRig.C, prefix)).as("prefix of length %d", length)
                    .isInstanceOf(CorruptClockException.class);
        }
    }

    @Test
    void aHeldRecordKeepsItsHeadersAcrossARestartUntilItIsDelivered() {
        NodeRig rig = new NodeRig().consumes(NodeRig.C, NodeRig.D);
        CausalNode first = rig.start();
        byte[] headers = HeaderBlock.encode(new RecordHeaders().add("trace", new byte[] {7}));
        VectorClock claimsD = NodeRig.clock().advanceTo(NodeRig.D, 0);

        assertThat(first.onRecord(new InboundRecord(NodeRig.C, 0, claimsD, null, -1, null, new byte[] {1}, 0,
                headers))).isEmpty();
        CausalNode restarted = rig.start();
        List<Delivery> out = restarted.onRecord(NodeRig.record(NodeRig.D, 0));

        assertThat(out).extracting(Delivery::offset).containsExactly(0L, 0L);
        assertThat(out.get(0).channel()).isEqualTo(NodeRig.D);
        assertThat(out.get(0).headers()).isNull();
        assertThat(out.get(1).headers()).isEqualTo(headers);
        assertThat(list(HeaderBlock.decode(out.get(1).headers()))).containsExactly("trace=07");
    }

    // Header block -------------------------------------------------------------------------------

    @Test
    void theBlockKeepsOrderDuplicatesAndNullValues() {
        Headers headers = new RecordHeaders().add("h", new byte[] {1}).add("n", null);

        assertThat(HeaderBlock.encode(headers)).isEqualTo(hex(BLOCK_HEX));
        Headers twice = new RecordHeaders().add("vc", new byte[] {1, 0, 0}).add("x", new byte[0])
                .add("vc", null).add("ü", "v".getBytes(StandardCharsets.UTF_8));
        assertThat(list(HeaderBlock.decode(HeaderBlock.encode(twice)))).isEqualTo(list(twice));
        assertThat(list(HeaderBlock.decode(hex(BLOCK_HEX)))).containsExactly("h=01", "n=null");
        assertThat(HeaderBlock.decode(HeaderBlock.encode(new RecordHeaders())).toArray()).isEmpty();
    }

    @Test
    void aDamagedBlockIsCorrupt() {
        assertThatThrownBy(() -> HeaderBlock.decode(hex("FFFFFFFF"))).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Malformed header block: negative header count -1");
        assertThatThrownBy(() -> HeaderBlock.decode(hex("00000001 FFFFFFFF")))
                .isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Malformed header block: length -1 with 0 remaining bytes");
        assertThatThrownBy(() -> HeaderBlock.decode(hex(BLOCK_HEX + " 00")))
                .isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Malformed header block: 1 trailing bytes");
        assertThatThrownBy(() -> HeaderBlock.decode(hex("00000001 00000001 FF 00000000")))
                .isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Malformed header block: a header key is not UTF-8");
    }

    @Test
    void everySingleByteDamageToTheBlockIsRejectedOrReEncodesExactly() {
        byte[] full = hex(BLOCK_HEX);
        List<byte[]> damaged = new ArrayList<>();
        for (int at = 0; at < full.length; at++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] flipped = full.clone();
                flipped[at] ^= (byte) (1 << bit);
                damaged.add(flipped);
            }
            damaged.add(Arrays.copyOf(full, at));
        }
        int accepted = 0;
        for (byte[] input : damaged) {
            Headers decoded;
            try {
                decoded = HeaderBlock.decode(input);
            } catch (CorruptClockException e) {
                continue;
            }
            assertThat(HeaderBlock.encode(decoded)).as(HexFormat.of().formatHex(input)).isEqualTo(input);
            accepted++;
        }
        assertThat(accepted).as("damage to header values stays decodable").isPositive();
    }

    private static List<String> list(Headers headers) {
        List<String> out = new ArrayList<>();
        for (Header h : headers) {
            out.add(h.key() + "=" + (h.value() == null ? "null" : HexFormat.of().formatHex(h.value())));
        }
        return out;
    }
}
