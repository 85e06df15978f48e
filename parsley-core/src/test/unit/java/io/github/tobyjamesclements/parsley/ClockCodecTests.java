package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden vectors for the clock wire format, version 3 (docs/wire-format.md); every proper prefix of
 * each is rejected. The other rejections are in {@link ClockCodecRejectionTests}. Version 2, still
 * read but never written, has goldens of its own ({@link #VERSION_2}): each decodes to the clock of
 * a version 3 golden.
 *
 * <p>Every hex literal below was written by hand from the layout, never produced by the encoder:
 * {@code u8 version 03, varint head = tag × 4 + offsetFlag × 2 + seqFlag (tag 0 = untagged, else
 * task + 1, then 8 B stage id, varint seq), [per topic (16 B id, varint group = shape × 2 + more,
 * shape dense n × 2 + 1 | single partition × 4 + 2 | sparse n × 4, per entry [varint partition
 * when sparse], varint offset: the first as is, each later one the zigzag of its difference from
 * the one before, in 63 bits)], [per sequence channel, ascending, the whole topic before its
 * partition 0 (16 B topic id, varint channel = field × 2 + more, field 0 for the whole topic else
 * partition + 1; per stage group, ascending signed stage id (8 B stage id, varint stage = shape × 2
 * + more, shape dense n × 2 + 1 | sparse n × 2, per task [varint task when sparse], varint seq: the
 * group's first as is, each later one the zigzag of its difference, as offsets))]}. Version 2's
 * sequence section was {@code varint channelCount, per channel (16 B id, varint partition, varint
 * senderCount, per sender 8 B stage id, varint task, varint seq)}. Varints are unsigned LEB128,
 * low group first.
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
    static final UUID T_RE = UUID.fromString("21222324-2526-2728-292a-2b2c2d2e2f30");
    static final String T_RE_HEX = "2122232425262728 292A2B2C2D2E2F30";
    static final UUID S1 = new UUID(0x1112131415161718L, 3);
    static final String S1_STAGE_HEX = "1112131415161718";
    static final String S1_HEX = S1_STAGE_HEX + " 03";
    static final UUID S_NEG = new UUID(0xF000000000000000L, 0);
    static final String S_NEG_STAGE_HEX = "F000000000000000";
    static final String S_NEG_HEX = S_NEG_STAGE_HEX + " 00";
    static final UUID S1_TASK_200 = new UUID(0x1112131415161718L, 200);
    static final String S1_TASK_200_HEX = S1_STAGE_HEX + " C801";

    static final Golden EMPTY = new Golden("empty", "03 00", VectorClock::new);

    static final Golden ONE_OFFSET = new Golden("one offset entry",
            "03 02 " + T1_HEX + " 3C 2A",
            () -> new VectorClock().advanceTo(ch(T1, 7), 42));

    /** Offsets 0, 127, 128, 16383: differences +127 (zigzag 254), +1 (2), +16255 (32510). */
    static final Golden PARTITIONS = new Golden("several partitions of one topic",
            "03 02 " + T1_HEX + " 20  00 00  01 FE01  05 02  AC02 FEFD01",
            () -> new VectorClock().advanceTo(ch(T1, 300), 16383).advanceTo(ch(T1, 0), 0)
                    .advanceTo(ch(T1, 5), 128).advanceTo(ch(T1, 1), 127));

    static final Golden TOPICS = new Golden("several topics in signed UUID order",
            "03 02 " + T_NEG_HEX + " 07 01  " + T_LSB_NEG_HEX + " 15 03  " + T_ONE_HEX + " 07 FF7F  "
                    + T1_HEX + " 3C 808001",
            () -> new VectorClock().advanceTo(ch(T1, 7), 16384).advanceTo(ch(T_ONE, 0), 16383)
                    .advanceTo(ch(T_LSB_NEG, 2), 3).advanceTo(ch(T_NEG, 0), 1));

    /**
     * The largest offset first, then differences of 16385 (modulo 2^63: 16384 - Long.MAX_VALUE),
     * +8191, +8192 and -32767, whose zigzags take three, two, three and three bytes.
     */
    static final Golden MULTI_BYTE = new Golden("multi-byte varints up to the largest partition and offset",
            "03 02 " + T1_HEX + " 28  7F FFFFFFFFFFFFFFFF7F  8001 828002  FF7F FE7F  808001 808001"
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
            "03 02 " + T1_HEX + " 1A  00 01 02 FFFFFFFFFFFFFFFF7F 01 FDFFFFFFFFFFFFFF7F",
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
            "03 02 " + T_NEG_HEX + " 7D 01  " + T_ONE_HEX + " 8501 02  " + T1_HEX + " FCFFFFFF3F 05",
            () -> new VectorClock().advanceTo(ch(T1, Integer.MAX_VALUE), 5).advanceTo(ch(T_ONE, 16), 2)
                    .advanceTo(ch(T_NEG, 15), 1));

    /**
     * Channels T_NEG:0 (field 1: header 03 with the more bit), T1:7 (field 8: 11) and T1:8 (field 9,
     * the last: 12). T1:7 holds two stage groups: S_NEG's task 0 alone is dense (shape 3, more: 07,
     * no task number), then S1's tasks 3 and 200, sparse (shape 4, the last: 08), seqs 9 then 1 - 9
     * = -8 (zigzag 0F). A lone task other than 0 is sparse (shape 2, header 04).
     */
    static final Golden SEQS = new Golden("sequence entries with several senders and channels",
            "03 01  " + T_NEG_HEX + " 03 " + S1_STAGE_HEX + " 04 03 05  "
                    + T1_HEX + " 11 " + S_NEG_STAGE_HEX + " 07 00 " + S1_STAGE_HEX + " 08 03 09 C801 0F  "
                    + T1_HEX + " 12 " + S1_STAGE_HEX + " 04 03 8001",
            () -> new VectorClock().advanceSeq(key(T1, 8, S1), 128).advanceSeq(key(T1, 7, S1), 9)
                    .advanceSeq(key(T1, 7, S1_TASK_200), 1).advanceSeq(key(T1, 7, S_NEG), 0)
                    .advanceSeq(key(T_NEG, 0, S1), 5));

    /**
     * The largest partition's field is 2^31, its header 2^32 (80 80 80 80 10); the largest task, sparse
     * (04), then the largest seq.
     */
    static final Golden SEQ_MULTI_BYTE = new Golden("a sequence entry with the largest partition, task and seq",
            "03 01 " + T1_HEX + " 8080808010 " + S1_STAGE_HEX + " 04 FFFFFFFF07 FFFFFFFFFFFFFFFF7F",
            () -> new VectorClock().advanceSeq(key(T1, Integer.MAX_VALUE, new UUID(0x1112131415161718L,
                    Integer.MAX_VALUE)), Long.MAX_VALUE));

    /**
     * Offsets as in version 2; then T_ONE:3 (field 4, more: 09) with S_NEG's task 0 dense (07, seq
     * 1) and S1's task 3 sparse (04 03, seq 2), and T1:0 (field 1, the last: 02) with S1's task 3.
     */
    static final Golden MIXED_WIDE = new Golden("offset and sequence entries over several topics",
            "03 03  " + T_NEG_HEX + " 07 AC02  " + T1_HEX + " 3C 2A  "
                    + T_ONE_HEX + " 09 " + S_NEG_STAGE_HEX + " 07 01 " + S1_STAGE_HEX + " 04 03 02  "
                    + T1_HEX + " 02 " + S1_STAGE_HEX + " 04 03 808001",
            () -> new VectorClock().advanceSeq(key(T1, 0, S1), 16384).advanceSeq(key(T_ONE, 3, S1), 2)
                    .advanceSeq(key(T_ONE, 3, S_NEG), 1).advanceTo(ch(T1, 7), 42).advanceTo(ch(T_NEG, 0), 300));

    /**
     * Stage groups of 64 tasks each: a dense group of tasks 0..63 (shape 129, header 258 = 82 02,
     * the more bit clear as it is the channel's only one) and a sparse group of tasks 1..64 (shape
     * 128, header 256 = 80 02), each seq the same as the one before (difference 0, zigzag 00).
     * Channel T1:63 has field 64, header 129 (81 01) with the more bit for T1:64 (field 65, the
     * last: 130 = 82 01). Hand-worked.
     */
    static final Golden SEQ_WIDE = new Golden("stage groups whose headers take two bytes", seqWideHex(), () -> {
        VectorClock c = new VectorClock();
        for (int t = 63; t >= 0; t--) {
            c.advanceSeq(key(T1, 63, new UUID(0x1112131415161718L, t)), 5);
        }
        for (int t = 64; t >= 1; t--) {
            c.advanceSeq(key(T1, 64, new UUID(0x1112131415161718L, t)), 7);
        }
        return c;
    });

    /** A stage emission with nothing to claim: sender S_NEG (task 0), seq 0. */
    static final Golden TAGGED_EMPTY = new Golden("a sender tag and an empty clock",
            "03 04 F000000000000000 00", VectorClock::new, S_NEG, 0);

    /** The first worked example of docs/wire-format.md: a single-source copy's stamp. */
    static final Golden STAMPED = new Golden("a sender tag and one offset entry",
            "03 12 " + S1_STAGE_HEX + " AC02  " + T1_HEX + " 3C 2A",
            () -> new VectorClock().advanceTo(ch(T1, 7), 42), S1, 300);

    /**
     * The two-source worked example of docs/wire-format.md: a whole topic, dense, its offsets 12500
     * then differences -10, +23, -12 (zigzag 19, 46, 23), and one entry of another.
     */
    static final Golden TWO_SOURCE = new Golden("a sender tag, a dense topic group and a single one",
            "03 12 " + S1_STAGE_HEX + " AC02  " + T1_HEX + " 13 D461 13 2E 17  "
                    + "2122232425262728292A2B2C2D2E2F30 14 F02E",
            () -> new VectorClock().advanceTo(ch(T1, 0), 12_500).advanceTo(ch(T1, 1), 12_490)
                    .advanceTo(ch(T1, 2), 12_513).advanceTo(ch(T1, 3), 12_501)
                    .advanceTo(ch(UUID.fromString("21222324-2526-2728-292a-2b2c2d2e2f30"), 2), 6_000), S1, 300);

    /**
     * The second worked example of docs/wire-format.md: a sender tag, an offset claim and a sequence
     * claim. The sequence channel T1:8 has field 9 and is the last (12); S_NEG's task 0 is dense
     * (shape 3, the last stage group: 06), then seq 9.
     */
    static final Golden MIXED = new Golden("a sender tag, one offset entry and one sequence entry",
            "03 13 " + S1_STAGE_HEX + " 0A  " + T1_HEX + " 3C 2A  " + T1_HEX + " 12 " + S_NEG_STAGE_HEX + " 06 09",
            () -> new VectorClock().advanceTo(ch(T1, 7), 42).advanceSeq(key(T1, 8, S_NEG), 9), S1, 10);

    /**
     * A whole-topic claim beside a partition's, worked byte by byte (hand-worked, never printed by
     * the encoder):
     * <pre>
     * 03                     version 3
     * 13                     head: tag 4 (S1's task 3 + 1) × 4 + offset flag 2 + sequence flag 1 = 19
     * 1112131415161718 0A    the tag's stage id, then its seq 10
     * T1 3C 2A               one offset topic group: T1, single partition 7 (shape 7 × 4 + 2 = 30,
     *                        header 60, the last group), offset 42
     * T1 01                  sequence channel T1:* (the whole topic, field 0), another channel follows: 0 × 2 + 1
     *   F000000000000000 0B  stage S_NEG, tasks 0 and 1: dense, shape 2 × 2 + 1 = 5, another stage follows: 11
     *     AC02 13            task 0's seq 300; task 1's seq 290, a difference of -10, zigzag 19
     *   1112131415161718 08  stage S1, tasks 3 and 200: sparse, shape 2 × 2 = 4, the last stage: 8
     *     03 09 C801 0F      task 3, seq 9; task 200, seq 1, a difference of -8, zigzag 15
     * T1 02                  sequence channel T1:0 (field 0 + 1), the last channel: 1 × 2 + 0
     *   1112131415161718 06  stage S1, task 0 alone: dense, shape 1 × 2 + 1 = 3, the last stage: 6
     *     05                 task 0's seq 5
     * </pre>
     * The whole topic's key sorts before partition 0 of its topic; 99 bytes in all.
     */
    static final Golden WHOLE_TOPIC = new Golden("a whole-topic claim, a dense stage group and a sparse one",
            "03 13 " + S1_STAGE_HEX + " 0A  " + T1_HEX + " 3C 2A  "
                    + T1_HEX + " 01  " + S_NEG_STAGE_HEX + " 0B AC02 13  " + S1_STAGE_HEX + " 08 03 09 C801 0F  "
                    + T1_HEX + " 02  " + S1_STAGE_HEX + " 06 05",
            () -> new VectorClock().advanceTo(ch(T1, 7), 42)
                    .advanceSeq(new SeqKey(Channel.wholeTopic(T1), new UUID(0xF000000000000000L, 1)), 290)
                    .advanceSeq(new SeqKey(Channel.wholeTopic(T1), S_NEG), 300)
                    .advanceSeq(new SeqKey(Channel.wholeTopic(T1), S1_TASK_200), 1)
                    .advanceSeq(new SeqKey(Channel.wholeTopic(T1), S1), 9)
                    .advanceSeq(key(T1, 0, new UUID(0x1112131415161718L, 0)), 5), S1, 10);

    /**
     * wire-format.md, "A re-keying stage's stamp": task 3 of stage {@code 1112…18} delivered offset 42
     * of partition 3 of {@code T1} and spread earlier sends over {@code T_RE}, the last of them (not
     * this record's) with sequence 299: one whole-topic claim, sparse stage group of task 3 ({@code 04}),
     * watermark 299 ({@code AB 02}); 59 bytes.
     */
    static final Golden REKEYED = new Golden("a re-keying stage's stamp: one whole-topic claim on its sink",
            "03 13 " + S1_STAGE_HEX + " AC02  " + T1_HEX + " 1C 2A  " + T_RE_HEX + " 00 " + S1_STAGE_HEX + " 04 03 AB02",
            () -> new VectorClock().advanceTo(ch(T1, 3), 42).advanceSeq(new SeqKey(Channel.wholeTopic(T_RE), S1), 299),
            S1, 300);

    /**
     * wire-format.md, "What its consumer's stamps carry": four tasks' whole-topic claims on {@code T_RE}
     * at 1000, 990, 1013, 1001, a dense stage group ({@code 12}) whose later watermarks are zigzagged
     * differences (-10, +23, -12 as {@code 13 2E 17}).
     */
    static final Golden DENSE_STAGE = new Golden("a stage's four tasks under one whole-topic claim, dense",
            "03 01  " + T_RE_HEX + " 00 " + S_NEG_STAGE_HEX + " 12 E807 13 2E 17",
            () -> new VectorClock()
                    .advanceSeq(new SeqKey(Channel.wholeTopic(T_RE), new UUID(0xF000000000000000L, 0)), 1000)
                    .advanceSeq(new SeqKey(Channel.wholeTopic(T_RE), new UUID(0xF000000000000000L, 1)), 990)
                    .advanceSeq(new SeqKey(Channel.wholeTopic(T_RE), new UUID(0xF000000000000000L, 2)), 1013)
                    .advanceSeq(new SeqKey(Channel.wholeTopic(T_RE), new UUID(0xF000000000000000L, 3)), 1001),
            null, -1);

    static final Golden TAGGED_LARGEST = new Golden("the largest task number and sequence in a tag",
            "03 8080808020 " + S1_STAGE_HEX + " FFFFFFFFFFFFFFFF7F", VectorClock::new,
            new UUID(0x1112131415161718L, Integer.MAX_VALUE), Long.MAX_VALUE);

    static final List<Golden> UNTAGGED = List.of(EMPTY, ONE_OFFSET, PARTITIONS, TOPICS, MULTI_BYTE, WRAP, WIDE, WIDE_SPARSE, SINGLES, SEQS,
            SEQ_MULTI_BYTE, MIXED_WIDE, SEQ_WIDE, DENSE_STAGE);

    static final List<Golden> GOLDENS = Stream.concat(UNTAGGED.stream(),
            Stream.of(TAGGED_EMPTY, STAMPED, TWO_SOURCE, MIXED, WHOLE_TOPIC, REKEYED, TAGGED_LARGEST)).toList();

    // Version 2, still read: the bytes the previous build wrote (its goldens, unchanged), each with
    // the version 3 golden of the same stamp, which is what this build writes for it.

    static final Golden V2_SEQS = new Golden("version 2: sequence entries with several senders and channels",
            "02 01 03  " + T_NEG_HEX + " 00 01 " + S1_HEX + " 05  "
                    + T1_HEX + " 07 03 " + S_NEG_HEX + " 00 " + S1_HEX + " 09 " + S1_TASK_200_HEX + " 01  "
                    + T1_HEX + " 08 01 " + S1_HEX + " 8001",
            SEQS.clock());

    static final Golden V2_SEQ_MULTI_BYTE = new Golden("version 2: the largest partition, task and seq",
            "02 01 01 " + T1_HEX + " FFFFFFFF07 01 " + S1_STAGE_HEX + " FFFFFFFF07 FFFFFFFFFFFFFFFF7F",
            SEQ_MULTI_BYTE.clock());

    static final Golden V2_MIXED_WIDE = new Golden("version 2: offset and sequence entries over several topics",
            "02 03  " + T_NEG_HEX + " 07 AC02  " + T1_HEX + " 3C 2A  "
                    + "02  " + T_ONE_HEX + " 03 02 " + S_NEG_HEX + " 01 " + S1_HEX + " 02  "
                    + T1_HEX + " 00 01 " + S1_HEX + " 808001",
            MIXED_WIDE.clock());

    static final Golden V2_MIXED = new Golden("version 2: a sender tag, one offset entry and one sequence entry",
            "02 13 " + S1_STAGE_HEX + " 0A  " + T1_HEX + " 3C 2A  01 " + T1_HEX + " 08 01 " + S_NEG_HEX + " 09",
            MIXED.clock(), S1, 10);

    static final Golden V2_STAMPED = new Golden("version 2: a sender tag and one offset entry",
            "02 12 " + S1_STAGE_HEX + " AC02  " + T1_HEX + " 3C 2A", STAMPED.clock(), S1, 300);

    /** Each version 2 golden and the version 3 golden of the same stamp. */
    static final Map<Golden, Golden> VERSION_2 = Map.of(V2_SEQS, SEQS, V2_SEQ_MULTI_BYTE, SEQ_MULTI_BYTE,
            V2_MIXED_WIDE, MIXED_WIDE, V2_MIXED, MIXED, V2_STAMPED, STAMPED);

    private static final String TRUNCATED =
            "Clock truncated at byte \\d+; needed \\d+ more|Count \\d+ exceeds the \\d+ remaining bytes";

    // Goldens ------------------------------------------------------------------------------

    @Test
    void aClockOfManyTopicsAndSequenceChannelsRoundTripsThroughItsExactLayout() {
        // 70 topic groups and 70 sequence channel groups, each with its own header and more bit,
        // which the layout must size exactly or the encoder refuses its own output
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
    void mixedStampIsFiftySixBytes() {
        // version 2 took 58: a channel count and a task number, which a dense stage group of task 0 omits
        assertGolden(MIXED);
        assertThat(MIXED.bytes()).hasSize(56);
    }

    @Test
    void aWholeTopicClaimSortsBeforePartitionZeroAndStageGroupsAreDenseOrSparse() {
        assertThat(Channel.wholeTopic(T1).compareTo(ch(T1, 0))).isNegative();
        assertGolden(WHOLE_TOPIC);
        assertThat(WHOLE_TOPIC.bytes()).hasSize(99);
    }

    @Test
    void stageGroupAndChannelHeadersTakeAsManyBytesAsTheyNeed() {
        assertGolden(SEQ_WIDE);
        // version, head, then per channel 16 + 2 (header) + 8 + 2 (stage header); 64 seqs, or 64 tasks and 64 seqs
        assertThat(SEQ_WIDE.bytes()).hasSize(1 + 1 + (16 + 2 + 8 + 2 + 64) + (16 + 2 + 8 + 2 + 64 * 2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("version2")
    void aVersionTwoStampStillDecodesToTheSameStampAndIsWrittenAsVersionThree(Golden v2) {
        Golden v3 = VERSION_2.get(v2);
        SendStamp decoded = ClockCodec.decodeStamp(v2.bytes());

        assertThat(decoded).isEqualTo(ClockCodec.decodeStamp(v3.bytes()));
        assertThat(decoded.clock()).isEqualTo(v2.clock().get());
        assertThat(decoded.sender()).isEqualTo(v2.sender());
        assertThat(decoded.seq()).isEqualTo(v2.seq());
        assertThat(v2.encode()).isEqualTo(v3.bytes());
        if (v2.sender() == null) {
            assertThat(ClockCodec.decode(v2.bytes())).isEqualTo(v3.clock().get());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("version2")
    void everyProperPrefixOfAVersionTwoGoldenIsRejected(Golden golden) {
        assertEveryProperPrefixRejected(golden);
    }

    @Test
    void tagCarriesTheLargestTaskAndSequence() {
        assertGolden(TAGGED_LARGEST);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldens")
    void everyProperPrefixOfAGoldenIsRejected(Golden golden) {
        assertEveryProperPrefixRejected(golden);
    }

    private static void assertEveryProperPrefixRejected(Golden golden) {
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

    static Stream<Golden> version2() {
        return Stream.of(V2_SEQS, V2_SEQ_MULTI_BYTE, V2_MIXED_WIDE, V2_MIXED, V2_STAMPED);
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
        StringBuilder sb = new StringBuilder("03 02 " + T1_HEX + " 8008");
        for (int p = 1; p <= 128; p++) {
            sb.append(p < 128 ? String.format(" %02X 00", p) : " 8001 00");
        }
        return sb.toString();
    }

    private static String seqWideHex() {
        StringBuilder sb = new StringBuilder("03 01 " + T1_HEX + " 8101 " + S1_STAGE_HEX + " 8202 05");
        for (int t = 1; t < 64; t++) {
            sb.append(" 00");
        }
        sb.append(" " + T1_HEX + " 8201 " + S1_STAGE_HEX + " 8002 01 07");
        for (int t = 2; t <= 64; t++) {
            sb.append(String.format(" %02X 00", t));
        }
        return sb.toString();
    }

    private static String wideHex() {
        StringBuilder sb = new StringBuilder("03 02 " + T1_HEX + " 8204");
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
