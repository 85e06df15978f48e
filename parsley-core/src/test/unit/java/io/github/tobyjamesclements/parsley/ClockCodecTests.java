package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden vectors and rejections for the clock wire format (docs/wire-format.md).
 *
 * <p>Every hex literal below was written by hand from the layout, never produced by the encoder:
 * {@code u8 version, varint topicCount, per topic (16 B id, varint entryCount, per entry varint
 * partition, varint offset), varint channelCount, per channel (16 B id, varint partition, varint
 * senderCount, per sender 16 B id, varint seq)}. Varints are unsigned LEB128, low group first.
 */
class ClockCodecTests {

    // Ids and their wire bytes (msb then lsb, big-endian). Under Java's signed UUID.compareTo:
    // T_NEG (msb top bit set) < T_LSB_NEG (msb 1, lsb top bit set) < T_ONE (msb 1) < T1.
    static final UUID T1 = UUID.fromString("01020304-0506-0708-090a-0b0c0d0e0f10");
    static final String T1_HEX = "0102030405060708 090A0B0C0D0E0F10";
    static final UUID T_NEG = UUID.fromString("80000000-0000-0000-0000-000000000001");
    static final String T_NEG_HEX = "8000000000000000 0000000000000001";
    static final UUID T_LSB_NEG = UUID.fromString("00000000-0000-0001-8000-000000000000");
    static final String T_LSB_NEG_HEX = "0000000000000001 8000000000000000";
    static final UUID T_ONE = UUID.fromString("00000000-0000-0001-0000-000000000000");
    static final String T_ONE_HEX = "0000000000000001 0000000000000000";
    static final UUID S1 = UUID.fromString("11121314-1516-1718-191a-1b1c1d1e1f20");
    static final String S1_HEX = "1112131415161718 191A1B1C1D1E1F20";
    static final UUID S_NEG = UUID.fromString("f0000000-0000-0000-0000-000000000000");
    static final String S_NEG_HEX = "F000000000000000 0000000000000000";

    static final Golden EMPTY = new Golden("empty", "01 00 00", VectorClock::new);

    static final Golden ONE_OFFSET = new Golden("one offset entry",
            "01 01 " + T1_HEX + " 01 07 2A 00",
            () -> new VectorClock().advanceTo(ch(T1, 7), 42));

    static final Golden PARTITIONS = new Golden("several partitions of one topic",
            "01 01 " + T1_HEX + " 04  00 00  01 7F  05 8001  AC02 FF7F  00",
            () -> new VectorClock().advanceTo(ch(T1, 300), 16383).advanceTo(ch(T1, 0), 0)
                    .advanceTo(ch(T1, 5), 128).advanceTo(ch(T1, 1), 127));

    static final Golden TOPICS = new Golden("several topics in signed UUID order",
            "01 04 " + T_NEG_HEX + " 01 00 01  " + T_LSB_NEG_HEX + " 01 02 03  " + T_ONE_HEX + " 01 00 FF7F  "
                    + T1_HEX + " 01 07 808001  00",
            () -> new VectorClock().advanceTo(ch(T1, 7), 16384).advanceTo(ch(T_ONE, 0), 16383)
                    .advanceTo(ch(T_LSB_NEG, 2), 3).advanceTo(ch(T_NEG, 0), 1));

    static final Golden MULTI_BYTE = new Golden("multi-byte varints up to the largest partition and offset",
            "01 01 " + T1_HEX + " 05  7F 7F  8001 8001  FF7F FF7F  808001 808001  FFFFFFFF07 FFFFFFFFFFFFFFFF7F  00",
            () -> new VectorClock().advanceTo(ch(T1, 127), 127).advanceTo(ch(T1, 128), 128)
                    .advanceTo(ch(T1, 16383), 16383).advanceTo(ch(T1, 16384), 16384)
                    .advanceTo(ch(T1, Integer.MAX_VALUE), Long.MAX_VALUE));

    static final Golden WIDE = new Golden("an entry count above 127", wideHex(), () -> {
        VectorClock c = new VectorClock();
        for (int p = 127; p >= 0; p--) {
            c.advanceTo(ch(T1, p), 0);
        }
        return c;
    });

    static final Golden SEQS = new Golden("sequence entries with several senders and channels",
            "01 00 03  " + T_NEG_HEX + " 00 01 " + S1_HEX + " 05  "
                    + T1_HEX + " 07 02 " + S_NEG_HEX + " 00 " + S1_HEX + " 09  "
                    + T1_HEX + " 08 01 " + S1_HEX + " 8001",
            () -> new VectorClock().advanceSeq(key(T1, 8, S1), 128).advanceSeq(key(T1, 7, S1), 9)
                    .advanceSeq(key(T1, 7, S_NEG), 0).advanceSeq(key(T_NEG, 0, S1), 5));

    static final Golden SEQ_MULTI_BYTE = new Golden("a sequence entry with the largest partition and seq",
            "01 00 01 " + T1_HEX + " FFFFFFFF07 01 " + S1_HEX + " FFFFFFFFFFFFFFFF7F",
            () -> new VectorClock().advanceSeq(key(T1, Integer.MAX_VALUE, S1), Long.MAX_VALUE));

    /** The worked example of docs/wire-format.md. */
    static final Golden MIXED = new Golden("one offset entry and one sequence entry",
            "01 01 " + T1_HEX + " 01 07 2A  01 " + T1_HEX + " 07 01 " + S1_HEX + " 09",
            () -> new VectorClock().advanceTo(ch(T1, 7), 42).advanceSeq(key(T1, 7, S1), 9));

    static final Golden MIXED_WIDE = new Golden("offset and sequence entries over several topics",
            "01 02  " + T_NEG_HEX + " 01 00 AC02  " + T1_HEX + " 01 07 2A  "
                    + "02  " + T_ONE_HEX + " 03 02 " + S_NEG_HEX + " 01 " + S1_HEX + " 02  "
                    + T1_HEX + " 00 01 " + S1_HEX + " 808001",
            () -> new VectorClock().advanceSeq(key(T1, 0, S1), 16384).advanceSeq(key(T_ONE, 3, S1), 2)
                    .advanceSeq(key(T_ONE, 3, S_NEG), 1).advanceTo(ch(T1, 7), 42).advanceTo(ch(T_NEG, 0), 300));

    static final List<Golden> GOLDENS = List.of(EMPTY, ONE_OFFSET, PARTITIONS, TOPICS, MULTI_BYTE, WIDE, SEQS,
            SEQ_MULTI_BYTE, MIXED, MIXED_WIDE);

    private static final String TRUNCATED =
            "Clock truncated at byte \\d+; needed \\d+ more|Count \\d+ exceeds the \\d+ remaining bytes";

    // Goldens ------------------------------------------------------------------------------

    @Test
    void emptyClockIsVersionAndTwoZeroCounts() {
        assertGolden(EMPTY);
        assertThat(EMPTY.bytes()).hasSize(3);
    }

    @Test
    void oneOffsetEntryIsTwentyTwoBytes() {
        assertGolden(ONE_OFFSET);
        assertThat(ONE_OFFSET.bytes()).hasSize(22);
    }

    @Test
    void partitionsOfOneTopicShareOneGroupInAscendingOrder() {
        assertGolden(PARTITIONS);
    }

    @Test
    void topicsAreWrittenInSignedUuidOrder() {
        assertThat(T_NEG.compareTo(T_LSB_NEG)).isNegative();
        assertThat(T_LSB_NEG.compareTo(T_ONE)).isNegative();
        assertThat(T_ONE.compareTo(T1)).isNegative();
        assertGolden(TOPICS);
    }

    @Test
    void varintsUseAsManySevenBitGroupsAsTheValueNeeds() {
        assertGolden(MULTI_BYTE);
    }

    @Test
    void entryCountAbove127TakesTwoBytes() {
        assertGolden(WIDE);
        assertThat(WIDE.bytes()).hasSize(1 + 1 + 16 + 2 + 128 * 2 + 1);
    }

    @Test
    void sequenceEntriesGroupSendersUnderTheirChannel() {
        assertGolden(SEQS);
    }

    @Test
    void sequenceEntriesCarryTheLargestPartitionAndSeq() {
        assertGolden(SEQ_MULTI_BYTE);
    }

    @Test
    void mixedClockIsFiftySevenBytes() {
        assertGolden(MIXED);
        assertThat(MIXED.bytes()).hasSize(57);
    }

    @Test
    void mixedClockOverSeveralTopicsRoundTrips() {
        assertGolden(MIXED_WIDE);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldens")
    void everyProperPrefixOfAGoldenIsRejected(Golden golden) {
        byte[] full = golden.bytes();
        for (int length = 0; length < full.length; length++) {
            byte[] prefix = Arrays.copyOf(full, length);
            assertThatThrownBy(() -> ClockCodec.decode(prefix))
                    .as("prefix of length %d", length)
                    .isExactlyInstanceOf(CorruptClockException.class)
                    .hasMessageMatching(TRUNCATED);
        }
    }

    @Test
    void emptyInputIsTruncatedAtByteZero() {
        assertRejected("", "Clock truncated at byte 0; needed 1 more");
    }

    @Test
    void truncationInsideAVarintNamesTheByte() {
        assertRejected("01 01 " + T1_HEX + " 01 07 80", "Clock truncated at byte 21; needed 1 more");
    }

    // Version and framing -------------------------------------------------------------------

    @Test
    void unknownVersionIsRejected() {
        assertRejected("02 00 00", "Unknown clock version 2; this build reads version 1");
        assertRejected("00 00 00", "Unknown clock version 0; this build reads version 1");
        assertRejected("FF 00 00", "Unknown clock version 255; this build reads version 1");
    }

    @Test
    void trailingBytesAreRejected() {
        assertRejected("01 00 00 00", "1 trailing bytes after clock");
        assertRejected(ONE_OFFSET.hex() + " FFFF", "2 trailing bytes after clock");
    }

    @Test
    void nullInputIsRejected() {
        assertThatThrownBy(() -> ClockCodec.decode(null)).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Clock bytes are null");
    }

    // Varints -------------------------------------------------------------------------------

    @Test
    void nonMinimalVarintIsRejectedWherever() {
        assertRejected("01 8000 00", "Non-minimal varint at byte 2");
        assertRejected("01 808000 00", "Non-minimal varint at byte 3");
        assertRejected("01 FF00", "Non-minimal varint at byte 2");
        assertRejected("01 01 " + T1_HEX + " 01 8700 2A 00", "Non-minimal varint at byte 20");
        assertRejected("01 01 " + T1_HEX + " 01 07 AA00 00", "Non-minimal varint at byte 21");
        assertRejected("01 00 8000", "Non-minimal varint at byte 3");
        assertRejected("01 00 01 " + T1_HEX + " 07 01 " + S1_HEX + " 8900", "Non-minimal varint at byte 38");
    }

    @Test
    void varintOverSixtyThreeBitsIsRejected() {
        assertRejected("01 80808080808080808001 00", "Varint exceeds 63 bits at byte 10");
        assertRejected("01 00 01 " + T1_HEX + " 07 01 " + S1_HEX + " FFFFFFFFFFFFFFFFFF01",
                "Varint exceeds 63 bits at byte 46");
    }

    @Test
    void partitionOverIntRangeIsRejected() {
        assertRejected("01 01 " + T1_HEX + " 01 8080808008 00 00", "Partition 2147483648 out of range");
        assertRejected("01 00 01 " + T1_HEX + " FFFFFFFF0F 01 " + S1_HEX + " 00", "Partition 4294967295 out of range");
    }

    // Offset section order ------------------------------------------------------------------

    @Test
    void unsortedTopicsAreRejected() {
        assertRejected("01 02 " + T1_HEX + " 01 00 00  " + T_NEG_HEX + " 01 00 00  00",
                "Offset topic groups unsorted or duplicated; topic=80000000-0000-0000-0000-000000000001");
    }

    @Test
    void unsignedTopicOrderIsRejected() {
        // Unsigned byte order would put T_ONE (0000…) first; Java's signed order puts T_NEG first.
        assertRejected("01 02 " + T_ONE_HEX + " 01 00 00  " + T_NEG_HEX + " 01 00 00  00",
                "Offset topic groups unsorted or duplicated; topic=80000000-0000-0000-0000-000000000001");
    }

    @Test
    void duplicateTopicGroupIsRejectedEvenWithAscendingPartitions() {
        assertRejected("01 02 " + T1_HEX + " 01 00 00  " + T1_HEX + " 01 01 00  00",
                "Offset topic groups unsorted or duplicated; topic=01020304-0506-0708-090a-0b0c0d0e0f10");
    }

    @Test
    void unsortedPartitionsAreRejected() {
        assertRejected("01 01 " + T1_HEX + " 02 05 00 03 00 00", "Offset entries unsorted or duplicated at 01020304:3");
    }

    @Test
    void duplicatePartitionsAreRejected() {
        assertRejected("01 01 " + T1_HEX + " 02 05 00 05 01 00", "Offset entries unsorted or duplicated at 01020304:5");
    }

    @Test
    void emptyTopicGroupIsRejected() {
        assertRejected("01 01 " + T1_HEX + " 00 00", "Empty offset topic group at byte 18");
    }

    // Sequence section order ----------------------------------------------------------------

    @Test
    void emptySenderGroupIsRejected() {
        assertRejected("01 00 02 " + T1_HEX + " 07 00  " + T1_HEX + " 08 01 " + S1_HEX + " 00",
                "Empty sequence channel group at 01020304:7");
    }

    @Test
    void unsortedSequenceChannelsAreRejected() {
        assertRejected("01 00 02 " + T1_HEX + " 08 01 " + S1_HEX + " 00  " + T1_HEX + " 07 01 " + S1_HEX + " 00",
                "Sequence channels unsorted or duplicated at 01020304:7");
        assertRejected("01 00 02 " + T1_HEX + " 00 01 " + S1_HEX + " 00  " + T_NEG_HEX + " 00 01 " + S1_HEX + " 00",
                "Sequence channels unsorted or duplicated at 80000000:0");
    }

    @Test
    void duplicateSequenceChannelsAreRejected() {
        assertRejected("01 00 02 " + T1_HEX + " 07 01 " + S1_HEX + " 00  " + T1_HEX + " 07 01 " + S1_HEX + " 01",
                "Sequence channels unsorted or duplicated at 01020304:7");
    }

    @Test
    void unsortedSendersAreRejected() {
        assertRejected("01 00 01 " + T1_HEX + " 07 02 " + S1_HEX + " 00 " + S_NEG_HEX + " 00",
                "Sequence entries unsorted or duplicated at 01020304:7/f0000000");
    }

    @Test
    void duplicateSendersAreRejected() {
        assertRejected("01 00 01 " + T1_HEX + " 07 02 " + S1_HEX + " 00 " + S1_HEX + " 01",
                "Sequence entries unsorted or duplicated at 01020304:7/11121314");
    }

    // Counts --------------------------------------------------------------------------------

    @Test
    void countsLargerThanTheRemainingBytesAreRejectedBeforeReading() {
        assertRejected("01 05 00", "Count 5 exceeds the 1 remaining bytes");
        assertRejected("01 01 " + T1_HEX + " 7F 00", "Count 127 exceeds the 1 remaining bytes");
        assertRejected("01 FFFFFFFFFFFFFFFF7F", "Count 9223372036854775807 exceeds the 0 remaining bytes");
        assertRejected("01 00 02 " + T1_HEX + " 07 01 " + S1_HEX + " 00", "Count 2 exceeds the 35 remaining bytes");
        assertRejected("01 00 01 " + T1_HEX + " 07 05 " + S1_HEX + " 00", "Count 5 exceeds the 17 remaining bytes");
    }

    // Helpers -------------------------------------------------------------------------------

    static Stream<Golden> goldens() {
        return GOLDENS.stream();
    }

    static Channel ch(UUID topic, int partition) {
        return new Channel(topic, partition);
    }

    static SeqKey key(UUID topic, int partition, UUID sender) {
        return new SeqKey(new Channel(topic, partition), sender);
    }

    static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex.replaceAll("\\s", ""));
    }

    private static String wideHex() {
        StringBuilder sb = new StringBuilder("01 01 " + T1_HEX + " 8001");
        for (int p = 0; p < 128; p++) {
            sb.append(String.format(" %02X 00", p));
        }
        return sb.append(" 00").toString();
    }

    private static void assertGolden(Golden golden) {
        assertThat(ClockCodec.decode(golden.bytes())).isEqualTo(golden.clock().get());
        assertThat(ClockCodec.encode(golden.clock().get())).isEqualTo(golden.bytes());
    }

    private static void assertRejected(String hex, String message) {
        byte[] bytes = hex(hex);
        assertThatThrownBy(() -> ClockCodec.decode(bytes)).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage(message);
    }

    /** A hand-written encoding and the clock it stands for. */
    record Golden(String name, String hex, Supplier<VectorClock> clock) {

        byte[] bytes() {
            return ClockCodecTests.hex(hex);
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
