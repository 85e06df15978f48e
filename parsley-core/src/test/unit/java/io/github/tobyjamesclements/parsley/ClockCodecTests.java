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
 * Golden vectors for the clock wire format, version 2 (docs/wire-format.md); every proper prefix of
 * each is rejected. The other rejections are in {@link ClockCodecRejectionTests}.
 *
 * <p>Every hex literal below was written by hand from the layout, never produced by the encoder:
 * {@code u8 version 02, varint head = tag × 4 + offsetFlag × 2 + seqFlag (tag 0 = untagged, else
 * task + 1, then 8 B stage id, varint seq), [per topic (16 B id, varint group = shape × 2 + more,
 * shape dense n × 2 + 1 | single partition × 4 + 2 | sparse n × 4, per entry [varint partition
 * when sparse], varint offset: the first as is, each later one the zigzag of its difference from
 * the one before, in 63 bits)], [varint channelCount, per channel (16 B id, varint partition,
 * varint senderCount, per sender 8 B stage id, varint task, varint seq)]}. Varints are unsigned
 * LEB128, low group first.
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
    // Senders: a stage id (8 bytes) and a task number (varint). S_NEG's stage id is negative, so it sorts first.
    static final UUID S1 = new UUID(0x1112131415161718L, 3);
    static final String S1_STAGE_HEX = "1112131415161718";
    static final String S1_HEX = S1_STAGE_HEX + " 03";
    static final UUID S_NEG = new UUID(0xF000000000000000L, 0);
    static final String S_NEG_HEX = "F000000000000000 00";
    static final UUID S1_TASK_200 = new UUID(0x1112131415161718L, 200);
    static final String S1_TASK_200_HEX = S1_STAGE_HEX + " C801";

    static final Golden EMPTY = new Golden("empty", "02 00", VectorClock::new);

    static final Golden ONE_OFFSET = new Golden("one offset entry",
            "02 02 " + T1_HEX + " 3C 2A",
            () -> new VectorClock().advanceTo(ch(T1, 7), 42));

    /** Offsets 0, 127, 128, 16383: differences +127 (zigzag 254), +1 (2), +16255 (32510). */
    static final Golden PARTITIONS = new Golden("several partitions of one topic",
            "02 02 " + T1_HEX + " 20  00 00  01 FE01  05 02  AC02 FEFD01",
            () -> new VectorClock().advanceTo(ch(T1, 300), 16383).advanceTo(ch(T1, 0), 0)
                    .advanceTo(ch(T1, 5), 128).advanceTo(ch(T1, 1), 127));

    static final Golden TOPICS = new Golden("several topics in signed UUID order",
            "02 02 " + T_NEG_HEX + " 07 01  " + T_LSB_NEG_HEX + " 15 03  " + T_ONE_HEX + " 07 FF7F  "
                    + T1_HEX + " 3C 808001",
            () -> new VectorClock().advanceTo(ch(T1, 7), 16384).advanceTo(ch(T_ONE, 0), 16383)
                    .advanceTo(ch(T_LSB_NEG, 2), 3).advanceTo(ch(T_NEG, 0), 1));

    /**
     * The largest offset first, then differences of 16385 (modulo 2^63: 16384 - Long.MAX_VALUE),
     * +8191, +8192 and -32767, whose zigzags take three, two, three and three bytes.
     */
    static final Golden MULTI_BYTE = new Golden("multi-byte varints up to the largest partition and offset",
            "02 02 " + T1_HEX + " 28  7F FFFFFFFFFFFFFFFF7F  8001 828002  FF7F FE7F  808001 808001"
                    + "  FFFFFFFF07 FDFF03",
            () -> new VectorClock().advanceTo(ch(T1, 127), Long.MAX_VALUE).advanceTo(ch(T1, 128), 16384)
                    .advanceTo(ch(T1, 16383), 16384 + 8191).advanceTo(ch(T1, 16384), 16384 + 8191 + 8192)
                    .advanceTo(ch(T1, Integer.MAX_VALUE), 0));

    /**
     * Differences at the edges of 63 bits, dense: 0 to Long.MAX_VALUE is -1 (zigzag 1), back to 0 is
     * +1 (2), 0 to 2^62 is -2^62 (the largest zigzag), 2^62 to 2^62 - 1 is -1, and back to 0 is
     * -(2^62 - 1) (zigzag 2^63 - 3).
     */
    static final Golden WRAP = new Golden("offset differences that wrap around 63 bits",
            "02 02 " + T1_HEX + " 1A  00 01 02 FFFFFFFFFFFFFFFF7F 01 FDFFFFFFFFFFFFFF7F",
            () -> new VectorClock().advanceTo(ch(T1, 0), 0).advanceTo(ch(T1, 1), Long.MAX_VALUE)
                    .advanceTo(ch(T1, 2), 0).advanceTo(ch(T1, 3), 1L << 62).advanceTo(ch(T1, 4), (1L << 62) - 1)
                    .advanceTo(ch(T1, 5), 0));

    static final Golden WIDE_SPARSE = new Golden("an entry count above 127, partitions 1 to 128", wideSparseHex(), () -> {
        VectorClock c = new VectorClock();
        for (int p = 128; p >= 1; p--) {
            c.advanceTo(ch(T1, p), 0);
        }
        return c;
    });

    /** Partitions 0 to 127 of one topic: the dense form, offsets without partition numbers. */
    static final Golden WIDE = new Golden("an entry count above 127, dense", wideHex(), () -> {
        VectorClock c = new VectorClock();
        for (int p = 127; p >= 0; p--) {
            c.advanceTo(ch(T1, p), 0);
        }
        return c;
    });

    /**
     * Single groups at the edges of a one-byte header: partition 15 (shape 62, header 7D with the
     * more bit), 16 (133: two bytes) and the largest partition (2^34 - 4: five bytes).
     */
    static final Golden SINGLES = new Golden("single groups whose headers take one, two and five bytes",
            "02 02 " + T_NEG_HEX + " 7D 01  " + T_ONE_HEX + " 8501 02  " + T1_HEX + " FCFFFFFF3F 05",
            () -> new VectorClock().advanceTo(ch(T1, Integer.MAX_VALUE), 5).advanceTo(ch(T_ONE, 16), 2)
                    .advanceTo(ch(T_NEG, 15), 1));

    static final Golden SEQS = new Golden("sequence entries with several senders and channels",
            "02 01 03  " + T_NEG_HEX + " 00 01 " + S1_HEX + " 05  "
                    + T1_HEX + " 07 03 " + S_NEG_HEX + " 00 " + S1_HEX + " 09 " + S1_TASK_200_HEX + " 01  "
                    + T1_HEX + " 08 01 " + S1_HEX + " 8001",
            () -> new VectorClock().advanceSeq(key(T1, 8, S1), 128).advanceSeq(key(T1, 7, S1), 9)
                    .advanceSeq(key(T1, 7, S1_TASK_200), 1).advanceSeq(key(T1, 7, S_NEG), 0)
                    .advanceSeq(key(T_NEG, 0, S1), 5));

    static final Golden SEQ_MULTI_BYTE = new Golden("a sequence entry with the largest partition, task and seq",
            "02 01 01 " + T1_HEX + " FFFFFFFF07 01 " + S1_STAGE_HEX + " FFFFFFFF07 FFFFFFFFFFFFFFFF7F",
            () -> new VectorClock().advanceSeq(key(T1, Integer.MAX_VALUE, new UUID(0x1112131415161718L,
                    Integer.MAX_VALUE)), Long.MAX_VALUE));

    static final Golden MIXED_WIDE = new Golden("offset and sequence entries over several topics",
            "02 03  " + T_NEG_HEX + " 07 AC02  " + T1_HEX + " 3C 2A  "
                    + "02  " + T_ONE_HEX + " 03 02 " + S_NEG_HEX + " 01 " + S1_HEX + " 02  "
                    + T1_HEX + " 00 01 " + S1_HEX + " 808001",
            () -> new VectorClock().advanceSeq(key(T1, 0, S1), 16384).advanceSeq(key(T_ONE, 3, S1), 2)
                    .advanceSeq(key(T_ONE, 3, S_NEG), 1).advanceTo(ch(T1, 7), 42).advanceTo(ch(T_NEG, 0), 300));

    /** A stage emission with nothing to claim: sender S_NEG (task 0), seq 0. */
    static final Golden TAGGED_EMPTY = new Golden("a sender tag and an empty clock",
            "02 04 F000000000000000 00", VectorClock::new, S_NEG, 0);

    /** The first worked example of docs/wire-format.md: a single-source copy's stamp. */
    static final Golden STAMPED = new Golden("a sender tag and one offset entry",
            "02 12 " + S1_STAGE_HEX + " AC02  " + T1_HEX + " 3C 2A",
            () -> new VectorClock().advanceTo(ch(T1, 7), 42), S1, 300);

    /**
     * The two-source worked example of docs/wire-format.md: a whole topic, dense, its offsets 12500
     * then differences -10, +23, -12 (zigzag 19, 46, 23), and one entry of another.
     */
    static final Golden TWO_SOURCE = new Golden("a sender tag, a dense topic group and a single one",
            "02 12 " + S1_STAGE_HEX + " AC02  " + T1_HEX + " 13 D461 13 2E 17  "
                    + "2122232425262728292A2B2C2D2E2F30 14 F02E",
            () -> new VectorClock().advanceTo(ch(T1, 0), 12_500).advanceTo(ch(T1, 1), 12_490)
                    .advanceTo(ch(T1, 2), 12_513).advanceTo(ch(T1, 3), 12_501)
                    .advanceTo(ch(UUID.fromString("21222324-2526-2728-292a-2b2c2d2e2f30"), 2), 6_000), S1, 300);

    /** The second worked example of docs/wire-format.md: a sender tag, an offset claim and a sequence claim. */
    static final Golden MIXED = new Golden("a sender tag, one offset entry and one sequence entry",
            "02 13 " + S1_STAGE_HEX + " 0A  " + T1_HEX + " 3C 2A  01 " + T1_HEX + " 08 01 " + S_NEG_HEX + " 09",
            () -> new VectorClock().advanceTo(ch(T1, 7), 42).advanceSeq(key(T1, 8, S_NEG), 9), S1, 10);

    static final Golden TAGGED_LARGEST = new Golden("the largest task number and sequence in a tag",
            "02 8080808020 " + S1_STAGE_HEX + " FFFFFFFFFFFFFFFF7F", VectorClock::new,
            new UUID(0x1112131415161718L, Integer.MAX_VALUE), Long.MAX_VALUE);

    static final List<Golden> UNTAGGED = List.of(EMPTY, ONE_OFFSET, PARTITIONS, TOPICS, MULTI_BYTE, WRAP, WIDE, WIDE_SPARSE, SINGLES, SEQS,
            SEQ_MULTI_BYTE, MIXED_WIDE);

    static final List<Golden> GOLDENS = Stream.concat(UNTAGGED.stream(),
            Stream.of(TAGGED_EMPTY, STAMPED, TWO_SOURCE, MIXED, TAGGED_LARGEST)).toList();

    private static final String TRUNCATED =
            "Clock truncated at byte \\d+; needed \\d+ more|Count \\d+ exceeds the \\d+ remaining bytes";

    // Goldens ------------------------------------------------------------------------------

    @Test
    void aClockOfManyTopicsAndSequenceChannelsRoundTripsThroughItsExactLayout() {
        // 70 topic groups and 70 sequence channels: their counts take two varint bytes each, which
        // the layout must size exactly or the encoder refuses its own output
        VectorClock clock = new VectorClock();
        for (int t = 0; t < 70; t++) {
            Channel c = new Channel(new UUID(t, 1), 0);
            clock.advanceTo(c, 1_000L * t);
            clock.advanceSeq(new SeqKey(c, new UUID(5, 0)), t);
        }

        byte[] bytes = ClockCodec.encode(new SendStamp(clock, new UUID(7, 3), 9));

        SendStamp back = ClockCodec.decodeStamp(bytes);
        assertThat(back.clock()).isEqualTo(clock);
        assertThat(back.sender()).isEqualTo(new UUID(7, 3));
        assertThat(back.seq()).isEqualTo(9);
    }

    @Test
    void emptyClockIsVersionAndAHeadWithoutTagOrFlags() {
        assertGolden(EMPTY);
        assertThat(EMPTY.bytes()).hasSize(2);
    }

    @Test
    void oneOffsetEntryIsTwentyBytes() {
        assertGolden(ONE_OFFSET);
        assertThat(ONE_OFFSET.bytes()).hasSize(20);
    }

    @Test
    void aSingleGroupCarriesItsPartitionInItsHeader() {
        assertGolden(SINGLES);
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
    void offsetDifferencesWrapAroundSixtyThreeBitsAndStayVarints() {
        assertGolden(WRAP);
    }

    @Test
    void entryCountAbove63TakesTwoBytesAndADenseGroupNoPartitions() {
        assertGolden(WIDE);
        assertThat(WIDE.bytes()).hasSize(1 + 1 + 16 + 2 + 128);
        assertGolden(WIDE_SPARSE);
        assertThat(WIDE_SPARSE.bytes()).hasSize(1 + 1 + 16 + 2 + 127 * 2 + 3);
    }

    @Test
    void sequenceEntriesGroupSendersUnderTheirChannelByStageIdThenTask() {
        assertThat(S_NEG.compareTo(S1)).isNegative();
        assertThat(S1.compareTo(S1_TASK_200)).isNegative();
        assertGolden(SEQS);
    }

    @Test
    void sequenceEntriesCarryTheLargestPartitionTaskAndSeq() {
        assertGolden(SEQ_MULTI_BYTE);
    }

    @Test
    void mixedClockOverSeveralTopicsRoundTrips() {
        assertGolden(MIXED_WIDE);
    }

    @Test
    void taggedEmptyClockIsElevenBytes() {
        assertGolden(TAGGED_EMPTY);
        assertThat(TAGGED_EMPTY.bytes()).hasSize(11);
    }

    @Test
    void singleSourceStampIsThirtyBytes() {
        assertGolden(STAMPED);
        assertThat(STAMPED.bytes()).hasSize(30);
    }

    @Test
    void twoSourceStampIsFiftyThreeBytes() {
        assertGolden(TWO_SOURCE);
        assertThat(TWO_SOURCE.bytes()).hasSize(53);
    }

    @Test
    void mixedStampIsFiftyEightBytes() {
        assertGolden(MIXED);
        assertThat(MIXED.bytes()).hasSize(58);
    }

    @Test
    void tagCarriesTheLargestTaskAndSequence() {
        assertGolden(TAGGED_LARGEST);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldens")
    void everyProperPrefixOfAGoldenIsRejected(Golden golden) {
        byte[] full = golden.bytes();
        for (int length = 0; length < full.length; length++) {
            byte[] prefix = Arrays.copyOf(full, length);
            assertThatThrownBy(() -> ClockCodec.decodeStamp(prefix))
                    .as("prefix of length %d", length)
                    .isExactlyInstanceOf(CorruptClockException.class)
                    .hasMessageMatching(TRUNCATED);
        }
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

    private static String wideSparseHex() {
        StringBuilder sb = new StringBuilder("02 02 " + T1_HEX + " 8008");
        for (int p = 1; p <= 128; p++) {
            sb.append(p < 128 ? String.format(" %02X 00", p) : " 8001 00");
        }
        return sb.toString();
    }

    private static String wideHex() {
        StringBuilder sb = new StringBuilder("02 02 " + T1_HEX + " 8204");
        for (int p = 0; p < 128; p++) {
            sb.append(" 00");
        }
        return sb.toString();
    }

    private static void assertGolden(Golden golden) {
        SendStamp decoded = ClockCodec.decodeStamp(golden.bytes());
        assertThat(decoded.clock()).isEqualTo(golden.clock().get());
        assertThat(decoded.sender()).isEqualTo(golden.sender());
        assertThat(decoded.seq()).isEqualTo(golden.seq());
        assertThat(golden.encode()).isEqualTo(golden.bytes());
    }

    /** A hand-written encoding and the stamp it stands for: a clock, and a sender tag unless sender is null. */
    record Golden(String name, String hex, Supplier<VectorClock> clock, UUID sender, long seq) {

        Golden(String name, String hex, Supplier<VectorClock> clock) {
            this(name, hex, clock, null, -1);
        }

        byte[] bytes() {
            return ClockCodecTests.hex(hex);
        }

        /** What the encoder writes for this golden's stamp. */
        byte[] encode() {
            return sender == null ? ClockCodec.encode(clock.get())
                    : ClockCodec.encode(new SendStamp(clock.get(), sender, seq));
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
