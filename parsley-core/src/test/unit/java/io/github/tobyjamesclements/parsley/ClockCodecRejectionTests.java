package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.ClockCodecTests.ONE_OFFSET;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.hex;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.S1;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.S1_HEX;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.S1_STAGE_HEX;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.S1_TASK_200_HEX;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.S_NEG_HEX;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.S_NEG_STAGE_HEX;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.STAMPED;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.T1;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.T1_HEX;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.T_NEG_HEX;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.T_ONE_HEX;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.WHOLE_TOPIC;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.hex;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Every rejection of the clock wire format, version 3 (docs/wire-format.md, "Strictness"), with
 * its message, on hand-written bytes, and those of version 2's sequence section, which this build
 * still reads as strictly; the goldens they vary are in {@link ClockCodecTests}.
 */
class ClockCodecRejectionTests {

    @Test
    void emptyInputIsTruncatedAtByteZero() {
        assertRejected("", "Clock truncated at byte 0; needed 1 more");
    }

    @Test
    void truncationInsideAVarintNamesTheByte() {
        assertRejected("03 02 " + T1_HEX + " 3C 80", "Clock truncated at byte 20; needed 1 more");
    }

    @Test
    void aGroupThatSaysAnotherFollowsCannotEndTheClock() {
        // ONE_OFFSET with its group's more bit set: a stamp cut after a whole group is refused, never read as fewer claims
        assertRejected("03 02 " + T1_HEX + " 3D 2A", "Clock truncated at byte 20; needed 8 more");
        assertRejected(STAMPED.hex().replace(" 3C ", " 3D "), "Clock truncated at byte 30; needed 8 more");
    }

    @Test
    void aFlaggedOffsetSectionMustHoldAGroup() {
        assertRejected("03 02", "Clock truncated at byte 2; needed 8 more");
        assertRejected("03 12 " + S1_STAGE_HEX + " AC02", "Clock truncated at byte 12; needed 8 more");
    }

    // Version, tag and framing ----------------------------------------------------------------

    @Test
    void versionOneAndUnknownVersionsAreRejectedNamingTheVersionsThisBuildReads() {
        assertRejected("01 00 00", "Unknown clock version 1; this build reads versions 2 and 3");
        assertRejected("00 00 00", "Unknown clock version 0; this build reads versions 2 and 3");
        assertRejected("04 00 00 00", "Unknown clock version 4; this build reads versions 2 and 3");
        assertRejected("FF 00 00", "Unknown clock version 255; this build reads versions 2 and 3");
    }

    @Test
    void aVersionOneStampAsEarlierBuildsWroteItIsRejected() {
        assertRejected("01 01 " + T1_HEX + " 01 07 2A 00", "Unknown clock version 1; this build reads versions 2 and 3");
    }

    @Test
    void trailingBytesAreRejected() {
        assertRejected("03 00 00", "1 trailing bytes after clock");
        assertRejected(ONE_OFFSET.hex() + " FFFF", "2 trailing bytes after clock");
        assertRejected(STAMPED.hex() + " 00", "1 trailing bytes after clock");
        assertRejected(WHOLE_TOPIC.hex() + " 00", "1 trailing bytes after clock");
        assertRejected("02 00 00", "1 trailing bytes after clock");
    }

    @Test
    void nullInputIsRejected() {
        assertThatThrownBy(() -> ClockCodec.decodeStamp(null)).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Clock bytes are null");
    }

    @Test
    void tagAboveTheLargestTaskIsRejected() {
        // head = tag 2147483649 × 4: the task 2147483648, one past the largest
        assertRejected("03 8480808020 " + S1_STAGE_HEX + " 00", "Sender task 2147483648 out of range at byte 1");
    }

    @Test
    void aStoredClockMustBeUntagged() {
        assertThat(ClockCodec.decode(ONE_OFFSET.bytes())).isEqualTo(ONE_OFFSET.clock().get());
        assertThatThrownBy(() -> ClockCodec.decode(STAMPED.bytes())).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Stored clock carries a sender tag; only record headers are tagged");
    }

    @Test
    void anUntaggedHeaderDecodesWithoutSenderAndWithSequenceMinusOne() {
        SendStamp stamp = ClockCodec.decodeStamp(ONE_OFFSET.bytes());

        assertThat(stamp.sender()).isNull();
        assertThat(stamp.seq()).isEqualTo(-1);
    }

    @Test
    void theEncoderRefusesWhatIsNotASenderTag() {
        VectorClock empty = new VectorClock();
        assertThatThrownBy(() -> ClockCodec.encode(new SendStamp(empty, new UUID(1, -1), 0)))
                .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining("Not a sender tag");
        assertThatThrownBy(() -> ClockCodec.encode(new SendStamp(empty, new UUID(1, 1L << 31), 0)))
                .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining("Not a sender tag");
        assertThatThrownBy(() -> ClockCodec.encode(new SendStamp(empty, S1, -1)))
                .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining("Not a sender tag");
        VectorClock foreign = new VectorClock().advanceSeq(key(T1, 0, new UUID(1, -5)), 0);
        assertThatThrownBy(() -> ClockCodec.encode(foreign))
                .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining("Not a sender id");
        VectorClock tooLarge = new VectorClock().advanceSeq(new SeqKey(Channel.wholeTopic(T1), new UUID(1, 1L << 31)), 0);
        assertThatThrownBy(() -> ClockCodec.encode(tooLarge))
                .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining("Not a sender id");
    }

    // Varints -------------------------------------------------------------------------------

    @Test
    void nonMinimalVarintIsRejectedWherever() {
        assertRejected("03 8000", "Non-minimal varint at byte 2");
        assertRejected("03 808000", "Non-minimal varint at byte 3");
        assertRejected("03 FF00", "Non-minimal varint at byte 2");
        assertRejected("03 02 " + T1_HEX + " BC00 2A", "Non-minimal varint at byte 19");
        assertRejected("03 02 " + T1_HEX + " 3C AA00", "Non-minimal varint at byte 20");
        assertRejected("03 02 " + T1_HEX + " 10 8700 2A 09 01", "Non-minimal varint at byte 20");
        assertRejected("03 02 " + T1_HEX + " 06 AA00", "Non-minimal varint at byte 20");
        assertRejected("03 10 " + S1_STAGE_HEX + " 8A00", "Non-minimal varint at byte 11");
        // the sequence section's channel header, stage header, task, first seq and a later seq's difference
        assertRejected("03 01 " + T1_HEX + " 9000 " + S1_STAGE_HEX + " 04 03 09", "Non-minimal varint at byte 19");
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 8400 03 09", "Non-minimal varint at byte 28");
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 04 8300 09", "Non-minimal varint at byte 29");
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 04 03 8900", "Non-minimal varint at byte 30");
        assertRejected("03 01 " + T1_HEX + " 10 " + S_NEG_STAGE_HEX + " 0A 09 8F00", "Non-minimal varint at byte 30");
    }

    @Test
    void varintOverSixtyThreeBitsIsRejected() {
        assertRejected("03 80808080808080808001", "Varint exceeds 63 bits at byte 10");
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 04 03 FFFFFFFFFFFFFFFFFF01",
                "Varint exceeds 63 bits at byte 38");
        assertRejected("03 10 " + S1_STAGE_HEX + " FFFFFFFFFFFFFFFFFF01", "Varint exceeds 63 bits at byte 19");
    }

    @Test
    void partitionAndTaskOverIntRangeAreRejected() {
        assertRejected("03 02 " + T1_HEX + " 10 8080808008 00 09 00", "Partition 2147483648 out of range");
        // a single group's header: partition 2147483648 × 4 + 2, then the last-group bit
        assertRejected("03 02 " + T1_HEX + " 8480808040 00", "Partition 2147483648 out of range");
        // a sequence channel's header: field 2147483649 (partition 2147483648 + 1) × 2
        assertRejected("03 01 " + T1_HEX + " 8280808010 " + S1_STAGE_HEX + " 04 03 00", "Partition 2147483648 out of range");
    }

    // Offset section order ------------------------------------------------------------------

    @Test
    void unsortedTopicsAreRejected() {
        assertRejected("03 02 " + T1_HEX + " 07 00  " + T_NEG_HEX + " 06 00",
                "Offset topic groups unsorted or duplicated; topic=80000000-0000-0000-0000-000000000001");
    }

    @Test
    void unsignedTopicOrderIsRejected() {
        // Unsigned byte order would put T_ONE (0000…) first; Java's signed order puts T_NEG first.
        assertRejected("03 02 " + T_ONE_HEX + " 07 00  " + T_NEG_HEX + " 06 00",
                "Offset topic groups unsorted or duplicated; topic=80000000-0000-0000-0000-000000000001");
    }

    @Test
    void duplicateTopicGroupIsRejectedEvenWithAscendingPartitions() {
        assertRejected("03 02 " + T1_HEX + " 07 00  " + T1_HEX + " 0C 00",
                "Offset topic groups unsorted or duplicated; topic=01020304-0506-0708-090a-0b0c0d0e0f10");
    }

    @Test
    void unsortedPartitionsAreRejected() {
        assertRejected("03 02 " + T1_HEX + " 10 05 00 03 00", "Offset entries unsorted or duplicated at 01020304:3");
    }

    @Test
    void duplicatePartitionsAreRejected() {
        assertRejected("03 02 " + T1_HEX + " 10 05 00 05 01", "Offset entries unsorted or duplicated at 01020304:5");
    }

    @Test
    void emptyTopicGroupIsRejected() {
        assertRejected("03 02 " + T1_HEX + " 00", "Empty offset topic group at byte 18");
        assertRejected("03 02 " + T1_HEX + " 02", "Empty offset topic group at byte 18");
        assertRejected("03 02 " + T1_HEX + " 03", "Empty offset topic group at byte 18");
    }

    @Test
    void aGroupOfPartitionsFromZeroUpMustBeDense() {
        assertRejected("03 02 " + T1_HEX + " 10 00 05 01 06", "Offset topic group of partitions 0..1 not in dense form at byte 18");
        assertRejected("03 02 " + T1_HEX + " 04 05", "Offset topic group of partitions 0..0 not in dense form at byte 18");
        assertThat(ClockCodec.decode(hex("03 02 " + T1_HEX + " 10 01 05 02 06")).offsets()).hasSize(2);
    }

    @Test
    void aGroupOfOneEntryMustBeSingleOrDense() {
        assertRejected("03 02 " + T1_HEX + " 08 07 2A", "Offset topic group of one entry not in single form at byte 18");
        assertRejected("03 02 " + T1_HEX + " 08 00 05", "Offset topic group of one entry not in single form at byte 18");
        assertThat(ClockCodec.decode(hex("03 02 " + T1_HEX + " 3C 2A"))).isEqualTo(ONE_OFFSET.clock().get());
    }

    // Sequence section (version 3) ------------------------------------------------------------
    //
    // Byte positions below: version 0, head 1, the first channel's topic id 2..17 and header 18,
    // its first stage id 19..26 and stage header 27, then tasks and seqs from 28; a second channel
    // after one stage group of one sparse task (task and seq one byte each) has its header at 46.

    /** One claim, {T1:7 / S1 -> 9}: channel field 8, the last (10); S1's task 3 alone, sparse (04). */
    private static final String ONE_SEQ = "03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 04 03 09";

    @Test
    void theSequenceRejectionsVaryAValidSection() {
        assertThat(ClockCodec.decode(hex(ONE_SEQ))).isEqualTo(new VectorClock().advanceSeq(key(T1, 7, S1), 9));
    }

    @Test
    void aFlaggedSequenceSectionMustHoldAChannelGroup() {
        // no channel count any more: the flag promises a channel group, which begins with a topic id
        assertRejected("03 01", "Clock truncated at byte 2; needed 8 more");
        assertRejected("03 01 00", "Clock truncated at byte 2; needed 8 more");
    }

    @Test
    void aChannelOrStageGroupThatSaysAnotherFollowsCannotEndTheClock() {
        assertRejected(ONE_SEQ.replace(" 10 ", " 11 "), "Clock truncated at byte 30; needed 8 more");
        assertRejected(ONE_SEQ.replace(" 04 03 09", " 05 03 09"), "Clock truncated at byte 30; needed 8 more");
    }

    @Test
    void unsortedSequenceChannelsAreRejected() {
        // T1:8 (field 9, more: 13) before T1:7 (field 8, the last: 10)
        assertRejected("03 01 " + T1_HEX + " 13 " + S1_STAGE_HEX + " 04 03 00  " + T1_HEX + " 10 " + S1_STAGE_HEX + " 04 03 00",
                "Sequence channels unsorted or duplicated at 01020304:7, byte 46");
        // T1:0 (03) before T_NEG:0 (02): unsigned order, not the signed order the channels sort in
        assertRejected("03 01 " + T1_HEX + " 03 " + S1_STAGE_HEX + " 04 03 00  " + T_NEG_HEX + " 02 " + S1_STAGE_HEX + " 04 03 00",
                "Sequence channels unsorted or duplicated at 80000000:0, byte 46");
    }

    @Test
    void aWholeTopicClaimAfterAPartitionOfItsTopicIsRejected() {
        // T1:0 (field 1, more: 03) then T1:* (field 0, the last: 00): the whole topic sorts first
        assertRejected("03 01 " + T1_HEX + " 03 " + S1_STAGE_HEX + " 04 03 00  " + T1_HEX + " 00 " + S1_STAGE_HEX + " 04 03 00",
                "Sequence channels unsorted or duplicated at 01020304:*, byte 46");
        // ... and the other way round is the canonical order
        assertThat(ClockCodec.decode(hex("03 01 " + T1_HEX + " 01 " + S1_STAGE_HEX + " 04 03 00  " + T1_HEX + " 02 "
                + S1_STAGE_HEX + " 04 03 00"))).isEqualTo(new VectorClock()
                        .advanceSeq(new SeqKey(Channel.wholeTopic(T1), S1), 0).advanceSeq(key(T1, 0, S1), 0));
    }

    @Test
    void duplicateSequenceChannelsAreRejected() {
        assertRejected("03 01 " + T1_HEX + " 11 " + S1_STAGE_HEX + " 04 03 00  " + T1_HEX + " 10 " + S1_STAGE_HEX + " 04 03 01",
                "Sequence channels unsorted or duplicated at 01020304:7, byte 46");
        assertRejected("03 01 " + T1_HEX + " 01 " + S1_STAGE_HEX + " 04 03 00  " + T1_HEX + " 00 " + S1_STAGE_HEX + " 04 03 01",
                "Sequence channels unsorted or duplicated at 01020304:*, byte 46");
    }

    @Test
    void unsortedStageGroupsAreRejected() {
        // S1's stage (05: sparse, one task, more) before S_NEG's (06: dense, one task, the last): S_NEG's
        // stage id is negative, first in signed order though last in unsigned
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 05 03 00 " + S_NEG_STAGE_HEX + " 06 00",
                "Sequence stage groups unsorted or duplicated at 01020304:7");
    }

    @Test
    void aStageSplitOverTwoGroupsIsRejected() {
        // S1's tasks 3 and 200 in two groups, ascending across them: one stage, one group
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 05 03 00 " + S1_STAGE_HEX + " 04 C801 00",
                "Sequence stage groups unsorted or duplicated at 01020304:7");
    }

    @Test
    void unsortedTasksAreRejected() {
        // S1's tasks 200 then 3 (08: sparse, two tasks, the last)
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 08 C801 00 03 00",
                "Sequence tasks unsorted or duplicated at 01020304:7, byte 27");
    }

    @Test
    void duplicateTasksAreRejected() {
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 08 03 00 03 01",
                "Sequence tasks unsorted or duplicated at 01020304:7, byte 27");
    }

    @Test
    void anEmptyStageGroupIsRejected() {
        // sparse with no task (00, 01 with the more bit), dense with no task (02, 03)
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 00", "Empty sequence stage group at byte 27");
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 01 " + S_NEG_STAGE_HEX + " 06 00",
                "Empty sequence stage group at byte 27");
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 02", "Empty sequence stage group at byte 27");
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 03 " + S_NEG_STAGE_HEX + " 06 00",
                "Empty sequence stage group at byte 27");
    }

    @Test
    void aSparseStageGroupOfTasksFromZeroUpMustBeDense() {
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 04 00 05",
                "Sequence stage group of tasks 0..0 not in dense form at byte 27");
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 08 00 05 01 00",
                "Sequence stage group of tasks 0..1 not in dense form at byte 27");
        // tasks 1 and 2 are no run from zero: sparse is their form; tasks 0 and 1 dense (0A) are the other's
        assertThat(ClockCodec.decode(hex("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 08 01 05 02 00")).seqs())
                .containsOnlyKeys(key(T1, 7, new UUID(0x1112131415161718L, 1)), key(T1, 7, new UUID(0x1112131415161718L, 2)));
        assertThat(ClockCodec.decode(hex("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 0A 05 00")).seqs())
                .containsOnlyKeys(key(T1, 7, new UUID(0x1112131415161718L, 0)), key(T1, 7, new UUID(0x1112131415161718L, 1)));
    }

    @Test
    void aTaskAboveTheLargestIsRejected() {
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 04 8080808008 00",
                "Sender task 2147483648 out of range at byte 27");
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 08 03 00 8080808008 00",
                "Sender task 2147483648 out of range at byte 27");
    }

    @Test
    void aStageGroupsTaskCountLargerThanTheRemainingBytesIsRejectedBeforeReading() {
        // five sparse tasks (14) need two bytes each; five dense ones (16) one each
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 14 03 00", "Count 5 exceeds the 2 remaining bytes");
        assertRejected("03 01 " + T1_HEX + " 10 " + S1_STAGE_HEX + " 16 00", "Count 5 exceeds the 1 remaining bytes");
    }

    // Sequence section (version 2, still read) ------------------------------------------------

    @Test
    void aFlaggedVersionTwoSequenceSectionMustNotBeEmpty() {
        assertRejected("02 01 00", "Empty sequence section at byte 2; the flag says one follows");
        assertRejected("02 01", "Clock truncated at byte 2; needed 1 more");
    }

    @Test
    void versionTwoVarintsAreAsStrict() {
        assertRejected("02 01 8000", "Non-minimal varint at byte 3");
        assertRejected("02 01 01 " + T1_HEX + " 07 01 " + S1_HEX + " 8900", "Non-minimal varint at byte 31");
        assertRejected("02 01 01 " + T1_HEX + " 07 01 " + S1_STAGE_HEX + " 8300 00", "Non-minimal varint at byte 30");
        assertRejected("02 01 01 " + T1_HEX + " 07 01 " + S1_HEX + " FFFFFFFFFFFFFFFFFF01",
                "Varint exceeds 63 bits at byte 39");
        assertRejected("02 01 01 " + T1_HEX + " FFFFFFFF0F 01 " + S1_HEX + " 00", "Partition 4294967295 out of range");
        assertRejected("02 01 01 " + T1_HEX + " 07 01 " + S1_STAGE_HEX + " 8080808008 00",
                "Sender task 2147483648 out of range at byte 29");
    }

    @Test
    void emptyVersionTwoSenderGroupIsRejected() {
        assertRejected("02 01 02 " + T1_HEX + " 07 00  " + T1_HEX + " 08 01 " + S1_HEX + " 00",
                "Empty sequence channel group at 01020304:7");
    }

    @Test
    void unsortedVersionTwoSequenceChannelsAreRejected() {
        assertRejected("02 01 02 " + T1_HEX + " 08 01 " + S1_HEX + " 00  " + T1_HEX + " 07 01 " + S1_HEX + " 00",
                "Sequence channels unsorted or duplicated at 01020304:7");
        assertRejected("02 01 02 " + T1_HEX + " 00 01 " + S1_HEX + " 00  " + T_NEG_HEX + " 00 01 " + S1_HEX + " 00",
                "Sequence channels unsorted or duplicated at 80000000:0");
    }

    @Test
    void duplicateVersionTwoSequenceChannelsAreRejected() {
        assertRejected("02 01 02 " + T1_HEX + " 07 01 " + S1_HEX + " 00  " + T1_HEX + " 07 01 " + S1_HEX + " 01",
                "Sequence channels unsorted or duplicated at 01020304:7");
    }

    @Test
    void unsortedVersionTwoSendersAreRejected() {
        assertRejected("02 01 01 " + T1_HEX + " 07 02 " + S1_HEX + " 00 " + S_NEG_HEX + " 00",
                "Sequence entries unsorted or duplicated at 01020304:7/f0000000#0");
        assertRejected("02 01 01 " + T1_HEX + " 07 02 " + S1_TASK_200_HEX + " 00 " + S1_HEX + " 00",
                "Sequence entries unsorted or duplicated at 01020304:7/11121314#3");
    }

    @Test
    void duplicateVersionTwoSendersAreRejected() {
        assertRejected("02 01 01 " + T1_HEX + " 07 02 " + S1_HEX + " 00 " + S1_HEX + " 01",
                "Sequence entries unsorted or duplicated at 01020304:7/11121314#3");
    }

    @Test
    void versionTwoSequenceCountsLargerThanTheRemainingBytesAreRejected() {
        assertRejected("02 01 02 " + T1_HEX + " 07 01 " + S1_HEX + " 00", "Count 2 exceeds the 28 remaining bytes");
        assertRejected("02 01 01 " + T1_HEX + " 07 05 " + S1_HEX + " 00", "Count 5 exceeds the 10 remaining bytes");
    }

    // Counts --------------------------------------------------------------------------------

    @Test
    void countsLargerThanTheRemainingBytesAreRejectedBeforeReading() {
        assertRejected("03 02 " + T1_HEX + " FE03 00", "Count 127 exceeds the 1 remaining bytes");
        assertRejected("03 02 " + T1_HEX + " 0A 00", "Count 2 exceeds the 1 remaining bytes");
        assertRejected("03 02 " + T1_HEX + " 28 00 00 00", "Count 5 exceeds the 3 remaining bytes");
        assertRejected("03 02 " + T1_HEX + " FFFFFFFFFFFFFFFF7F", "Count 2305843009213693951 exceeds the 0 remaining bytes");
    }

    private static void assertRejected(String hex, String message) {
        byte[] bytes = hex(hex);
        assertThatThrownBy(() -> ClockCodec.decodeStamp(bytes)).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage(message);
    }
}
