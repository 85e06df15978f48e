package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.ClockCodecTests.S1;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.T1;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The protocol store layout (protocol.md §10.3-10.4): the held-record envelope with the clock in
 * Parsley's varint format, the store key formats, and the buffered writes that reach the
 * underlying {@link StateStore} only at flush.
 */
class ProtocolStoreTests {

    private static final UUID T2 = UUID.fromString("21222324-2526-2728-292a-2b2c2d2e2f30");
    private static final Channel C = new Channel(T1, 7);
    private static final String C_KEY = "01020304-0506-0708-090a-0b0c0d0e0f10:7";
    /** S1 as the envelope stores a sender: both halves of its UUID form, 16 bytes. */
    private static final String S1_HEX = "1112131415161718 0000000000000003";

    /**
     * protocol.md §10.3's golden entry: offset 1, timestamp 0x1122334455667788, tagged by S1 with
     * seq 10, clock {T2:1 -> 5}, key 0A0B, value 0C; the clock is the 20-byte untagged version-3 form
     * {@code 03 02 <T2> 0C 05} (0x14 bytes) instead of the reference's 37 fixed-width bytes.
     */
    static final String TAGGED_HEX = "0000000000000001 1122334455667788 01 " + S1_HEX + " 000000000000000A"
            + " 00000014 03 02 2122232425262728 292A2B2C2D2E2F30 0C 05"
            + " 00000002 0A0B 00000001 0C";

    /** Where an envelope's clock begins: after offset, timestamp, tag byte, sender, seq and the clock's length. */
    private static final int CLOCK_VERSION_AT = 8 + 8 + 1 + 16 + 8 + 4;

    /** {@link #TAGGED_HEX} as the previous build stored it: its clock in version 2, otherwise the same bytes. */
    private static final String TAGGED_V2_HEX = TAGGED_HEX.replace(" 00000014 03 02 ", " 00000014 02 02 ");

    /** Untagged, empty clock, null key and value: zero sender, seq -1, lengths -1. */
    private static final String UNTAGGED_HEX = "0000000000000007 0000000000000000 00"
            + " 0000000000000000 0000000000000000 FFFFFFFFFFFFFFFF"
            + " 00000002 03 00 FFFFFFFF FFFFFFFF";

    // Held-record envelope -----------------------------------------------------------------

    @Test
    void taggedEntryMatchesTheGoldenEnvelope() {
        HeldEntry entry = new HeldEntry(C, 1, new VectorClock().advanceTo(new Channel(T2, 1), 5), S1, 10,
                hex("0A0B"), hex("0C"), 0x1122334455667788L);

        assertThat(HeldEntryEnvelope.encode(entry)).isEqualTo(hex(TAGGED_HEX)).hasSize(76);
        assertSameEntry(HeldEntryEnvelope.decode(C, hex(TAGGED_HEX)), entry);
    }

    @Test
    void untaggedEntryWithNullKeyAndValueMatchesTheGoldenEnvelope() {
        HeldEntry entry = new HeldEntry(C, 7, new VectorClock(), null, -1, null, null, 0);

        assertThat(HeldEntryEnvelope.encode(entry)).isEqualTo(hex(UNTAGGED_HEX)).hasSize(55);
        HeldEntry decoded = HeldEntryEnvelope.decode(C, hex(UNTAGGED_HEX));
        assertSameEntry(decoded, entry);
        assertThat(decoded.tagged()).isFalse();
    }

    @Test
    void emptyKeyAndValueStayDistinctFromNull() {
        HeldEntry entry = new HeldEntry(C, 0, new VectorClock(), S1, 0, new byte[0], new byte[0], -5);
        String expected = "0000000000000000 FFFFFFFFFFFFFFFB 01 " + S1_HEX + " 0000000000000000"
                + " 00000002 0300 00000000 00000000";

        assertThat(HeldEntryEnvelope.encode(entry)).isEqualTo(hex(expected));
        HeldEntry decoded = HeldEntryEnvelope.decode(C, hex(expected));
        assertThat(decoded.key()).isNotNull().isEmpty();
        assertThat(decoded.value()).isNotNull().isEmpty();
    }

    @Test
    void anEntryThePreviousBuildStoredWithAVersionTwoClockRestoresAndIsRewrittenInVersionThree() {
        assertThat(TAGGED_V2_HEX).isNotEqualTo(TAGGED_HEX);
        HeldEntry entry = new HeldEntry(C, 1, new VectorClock().advanceTo(new Channel(T2, 1), 5), S1, 10,
                hex("0A0B"), hex("0C"), 0x1122334455667788L);

        HeldEntry restored = HeldEntryEnvelope.decode(C, hex(TAGGED_V2_HEX));

        assertSameEntry(restored, entry);
        assertThat(HeldEntryEnvelope.encode(restored)).isEqualTo(hex(TAGGED_HEX));
    }

    @Test
    void untaggedEntryIgnoresAnyStaleSeq() {
        HeldEntry entry = new HeldEntry(C, 7, new VectorClock(), null, 99, null, null, 0);

        assertThat(HeldEntryEnvelope.encode(entry)).isEqualTo(hex(UNTAGGED_HEX));
    }

    @Test
    void truncatedEnvelopeIsCorrupt() {
        byte[] full = hex(TAGGED_HEX);
        for (int length = 0; length < full.length; length++) {
            byte[] prefix = Arrays.copyOf(full, length);
            assertThatThrownBy(() -> HeldEntryEnvelope.decode(C, prefix)).as("prefix of length %d", length)
                    .isInstanceOf(CorruptClockException.class);
        }
    }

    @Test
    void envelopeLengthBeyondTheBytesIsCorruptWithoutAllocating() {
        String hugeClock = "0000000000000007 0000000000000000 00 0000000000000000 0000000000000000 FFFFFFFFFFFFFFFF"
                + " 7FFFFFF0 010000 FFFFFFFF FFFFFFFF";
        String hugeKey = UNTAGGED_HEX.substring(0, UNTAGGED_HEX.length() - "FFFFFFFF FFFFFFFF".length())
                + "7FFFFFFF FFFFFFFF";

        assertThatThrownBy(() -> HeldEntryEnvelope.decode(C, hex(hugeClock))).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Malformed held-record envelope: length 2147483632 exceeds the 11 remaining bytes");
        assertThatThrownBy(() -> HeldEntryEnvelope.decode(C, hex(hugeKey))).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Malformed held-record envelope: length 2147483647 exceeds the 4 remaining bytes");
    }

    @Test
    void negativeLengthOtherThanNullIsCorrupt() {
        String minusTwo = UNTAGGED_HEX.replace("FFFFFFFF FFFFFFFF", "FFFFFFFE FFFFFFFF");

        assertThatThrownBy(() -> HeldEntryEnvelope.decode(C, hex(minusTwo))).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Malformed held-record envelope: negative length -2");
    }

    @Test
    void bytesAfterTheValueThatAreNoHeaderBlockAreCorrupt() {
        // after the value only a header block may follow (HeldEntryEnvelopeHeadersTests)
        assertThatThrownBy(() -> HeldEntryEnvelope.decode(C, hex(TAGGED_HEX + " 00")))
                .isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Malformed held-record envelope: truncated at byte 76");
    }

    @Test
    void tagByteOtherThanZeroOrOneIsCorrupt() {
        String two = TAGGED_HEX.replaceFirst("1122334455667788 01", "1122334455667788 02");

        assertThatThrownBy(() -> HeldEntryEnvelope.decode(C, hex(two))).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Malformed held-record envelope: inconsistent sender tag; tagged=2, sender=" + S1 + ", seq=10");
    }

    @Test
    void untaggedEnvelopeWithASenderOrSeqIsCorrupt() {
        String withSender = UNTAGGED_HEX.replaceFirst("00 0000000000000000 0000000000000000", "00 " + S1_HEX);
        String withSeq = UNTAGGED_HEX.replace("FFFFFFFFFFFFFFFF", "0000000000000003");

        assertThatThrownBy(() -> HeldEntryEnvelope.decode(C, hex(withSender))).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Malformed held-record envelope: inconsistent sender tag; tagged=0, sender=" + S1 + ", seq=-1");
        assertThatThrownBy(() -> HeldEntryEnvelope.decode(C, hex(withSeq))).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Malformed held-record envelope: inconsistent sender tag; tagged=0, "
                        + "sender=00000000-0000-0000-0000-000000000000, seq=3");
    }

    @Test
    void taggedEnvelopeWithNegativeSeqIsCorrupt() {
        String negative = TAGGED_HEX.replace("000000000000000A", "FFFFFFFFFFFFFFFF");

        assertThatThrownBy(() -> HeldEntryEnvelope.decode(C, hex(negative))).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Malformed held-record envelope: inconsistent sender tag; tagged=1, sender=" + S1 + ", seq=-1");
    }

    @Test
    void corruptClockInsideTheEnvelopeIsCorrupt() {
        String badVersion = TAGGED_HEX.replace("00000014 03 02", "00000014 01 02");
        String nextVersion = TAGGED_HEX.replace("00000014 03 02", "00000014 04 02");

        assertThatThrownBy(() -> HeldEntryEnvelope.decode(C, hex(badVersion))).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Unknown clock version 1; this build reads versions 2 and 3");
        assertThatThrownBy(() -> HeldEntryEnvelope.decode(C, hex(nextVersion))).isExactlyInstanceOf(CorruptClockException.class)
                .hasMessage("Unknown clock version 4; this build reads versions 2 and 3");
    }

    @Test
    void everySingleByteDamageToTheGoldenIsRejectedOrReEncodesExactly() {
        List<byte[]> damaged = new ArrayList<>();
        for (String golden : List.of(TAGGED_HEX, UNTAGGED_HEX)) {
            byte[] full = hex(golden);
            for (int at = 0; at < full.length; at++) {
                for (int bit = 0; bit < 8; bit++) {
                    byte[] flipped = full.clone();
                    flipped[at] ^= (byte) (1 << bit);
                    damaged.add(flipped);
                }
                byte[] deleted = new byte[full.length - 1];
                System.arraycopy(full, 0, deleted, 0, at);
                System.arraycopy(full, at + 1, deleted, at, full.length - at - 1);
                damaged.add(deleted);
                for (int b : new int[] {0x00, 0xFF}) {
                    byte[] inserted = new byte[full.length + 1];
                    System.arraycopy(full, 0, inserted, 0, at);
                    inserted[at] = (byte) b;
                    System.arraycopy(full, at, inserted, at + 1, full.length - at);
                    damaged.add(inserted);
                }
            }
        }
        int accepted = 0;
        for (byte[] input : damaged) {
            HeldEntry decoded;
            try {
                decoded = HeldEntryEnvelope.decode(C, input);
            } catch (CorruptClockException e) {
                continue;
            } catch (RuntimeException | Error e) {
                throw new AssertionError("HeldEntryEnvelope.decode threw " + e + " for " + HexFormat.of().formatHex(input), e);
            }
            byte[] expected = input;
            if (input.length > CLOCK_VERSION_AT && input[CLOCK_VERSION_AT] == ClockCodec.VERSION_2) {
                // damage that turns the clock's version byte into 2 leaves a valid version 2 clock,
                // still read; both goldens' clocks hold offsets only, which version 2 wrote exactly
                // as version 3 does, so the rewrite differs from the input in that byte alone
                expected = input.clone();
                expected[CLOCK_VERSION_AT] = ClockCodec.VERSION;
            }
            assertThat(HeldEntryEnvelope.encode(decoded)).as(HexFormat.of().formatHex(input)).isEqualTo(expected);
            accepted++;
        }
        assertThat(accepted).as("damage to payload fields stays decodable").isPositive();
    }

    // Store keys ---------------------------------------------------------------------------

    @Test
    void channelKeysUseTheLowerCaseDashedUuidAndPartition() {
        assertThat(ProtocolStore.frontierKey(C)).isEqualTo("f/" + C_KEY);
        assertThat(ProtocolStore.channelClockKey(C)).isEqualTo("cc/" + C_KEY);
        assertThat(ProtocolStore.queueMetaKey(C)).isEqualTo("q/" + C_KEY + "/m");
        assertThat(ProtocolStore.sendSeqKey(C)).isEqualTo("sq/" + C_KEY);
        // a topic's reserved ceiling (§6.2): the whole-topic key's store form names no partition
        assertThat(ProtocolStore.sendSeqKey(Channel.wholeTopic(T1))).isEqualTo("sq/01020304-0506-0708-090a-0b0c0d0e0f10:*");
        assertThat(ProtocolStore.frontierKey(new Channel(new UUID(0xABCDEF0000000000L, -1), Integer.MAX_VALUE)))
                .isEqualTo("f/abcdef00-0000-0000-ffff-ffffffffffff:2147483647");
        assertThat(ProtocolStore.SCOPE).isEqualTo("scope");
        assertThat(ProtocolStore.CARRIED).isEqualTo("ca");
    }

    @Test
    void entryKeysAreSixteenLowerCaseHexDigitsZeroPadded() {
        assertThat(ProtocolStore.entryKey(C, 0)).isEqualTo("q/" + C_KEY + "/e/0000000000000000");
        assertThat(ProtocolStore.entryKey(C, 1)).isEqualTo("q/" + C_KEY + "/e/0000000000000001");
        assertThat(ProtocolStore.entryKey(C, 0xABCDEF)).isEqualTo("q/" + C_KEY + "/e/0000000000abcdef");
        assertThat(ProtocolStore.entryKey(C, Long.MAX_VALUE)).isEqualTo("q/" + C_KEY + "/e/7fffffffffffffff");
    }

    @Test
    void entryKeysSortInIndexOrder() {
        List<String> keys = new ArrayList<>();
        for (long index : new long[] {0, 9, 10, 15, 16, 255, 256, 1L << 40, Long.MAX_VALUE}) {
            keys.add(ProtocolStore.entryKey(C, index));
        }

        assertThat(keys).isSorted();
    }

    @Test
    void markKeyAppendsTheSenderUuid() {
        assertThat(ProtocolStore.markKey(new SeqKey(C, S1)))
                .isEqualTo("ds/" + C_KEY + "/11121314-1516-1718-0000-000000000003");
    }

    @Test
    void channelTextParsesBack() {
        assertThat(ProtocolStore.parseChannel(C_KEY)).isEqualTo(C);
        Channel whole = ProtocolStore.parseChannel("01020304-0506-0708-090a-0b0c0d0e0f10:*");
        assertThat(whole).isEqualTo(Channel.wholeTopic(T1)).isNotEqualTo(new Channel(T1, 0));
        assertThat(whole.isWholeTopic()).isTrue();
        assertThat(whole.key()).isEqualTo("01020304-0506-0708-090a-0b0c0d0e0f10:*");
        assertThatThrownBy(() -> ProtocolStore.parseChannel("no-colon")).isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("Malformed channel in protocol store key; key part='no-colon'");
        assertThatThrownBy(() -> ProtocolStore.parseChannel("01020304-0506-0708-090a-0b0c0d0e0f10:-1"))
                .as("the whole topic is written *, never as its partition number").isInstanceOf(IllegalArgumentException.class);
    }

    // Buffered writes ----------------------------------------------------------------------

    @Test
    void nothingReachesTheStoreBeforeFlush() {
        TestStateStore raw = new TestStateStore();
        ProtocolStore store = new ProtocolStore(raw);

        store.putFloor(C, 5, true);
        store.putEntry(C, 0, entry(5));

        assertThat(raw.writes()).isEmpty();
        assertThat(raw.keys()).isEmpty();
    }

    @Test
    void freshEntryPutAndDeletedWithinOneFlushNeverReachesTheStore() {
        TestStateStore raw = new TestStateStore();
        ProtocolStore store = new ProtocolStore(raw);
        HoldQueue queue = new HoldQueue(C);

        queue.enqueue(entry(5), store);
        queue.pop(store);
        store.flush();

        assertThat(raw.writes()).as("the entry, and the index of a queue empty before and after").isEmpty();
    }

    @Test
    void aReleasedEntrysKeyLeavesTheWriteBufferWithTheFlushThatDeletesIt() {
        TestStateStore raw = new TestStateStore();
        ProtocolStore store = new ProtocolStore(raw);
        HoldQueue queue = new HoldQueue(C);
        store.putFloor(C, 4, true);
        for (int i = 0; i < 50; i++) {
            queue.enqueue(entry(5 + i), store);
            store.flush();
            queue.pop(store);
            store.flush();
        }

        assertThat(raw.keys()).as("every entry was written, then deleted").doesNotContain(ProtocolStore.entryKey(C, 0));
        // the frontier's and the queue index's keys are kept; fifty released entries leave nothing behind
        assertThat(store.bookkept()).isEqualTo(2);
    }

    @Test
    void queueIndexIsWrittenWhenAQueueDrainsAndThenNotWhileItStaysEmpty() {
        TestStateStore raw = new TestStateStore();
        ProtocolStore store = new ProtocolStore(raw);
        HoldQueue queue = new HoldQueue(C);
        queue.enqueue(entry(5), store);
        store.flush();
        assertThat(raw.get("q/" + C_KEY + "/m")).isEqualTo(hex("0000000000000000 0000000000000001"));
        raw.writes().clear();
        store.flush();
        assertThat(raw.writes()).as("a flush with nothing changed writes nothing").isEmpty();

        queue.pop(store);
        store.flush();
        assertThat(raw.get("q/" + C_KEY + "/m")).as("the drain is persisted")
                .isEqualTo(hex("0000000000000001 0000000000000001"));

        raw.writes().clear();
        queue.enqueue(entry(6), store);
        queue.pop(store);
        store.flush();
        assertThat(raw.writes()).as("empty before and after: nothing written").isEmpty();

        queue.enqueue(entry(7), store);
        store.flush();
        assertThat(raw.get("q/" + C_KEY + "/m")).as("held again: index and entry from the in-memory tail")
                .isEqualTo(hex("0000000000000002 0000000000000003"));
        assertThat(raw.keys()).contains(ProtocolStore.entryKey(C, 2));
    }

    @Test
    void aRestoredNonEmptyIndexIsRewrittenWhenTheQueueDrains() {
        TestStateStore raw = new TestStateStore();
        ProtocolStore first = new ProtocolStore(raw);
        HoldQueue queue = new HoldQueue(C);
        queue.enqueue(entry(5), first);
        first.flush();

        ProtocolStore second = new ProtocolStore(raw);
        HoldQueue restored = second.queues().get(C);
        restored.pop(second);
        second.flush();

        assertThat(raw.get("q/" + C_KEY + "/m")).isEqualTo(hex("0000000000000001 0000000000000001"));
        assertThat(raw.keys()).doesNotContain(ProtocolStore.entryKey(C, 0));
    }

    @Test
    void entryFlushedEarlierIsDeletedFromTheStore() {
        TestStateStore raw = new TestStateStore();
        ProtocolStore store = new ProtocolStore(raw);
        store.putEntry(C, 0, entry(5));
        store.flush();

        store.deleteEntry(C, 0);
        store.flush();

        String key = "q/" + C_KEY + "/e/0000000000000000";
        assertThat(raw.writes()).containsExactly("put " + key, "delete " + key);
        assertThat(raw.keys()).doesNotContain(key);
    }

    @Test
    void flushWritesEachChangedKeyOnceWithItsLastValue() {
        TestStateStore raw = new TestStateStore();
        ProtocolStore store = new ProtocolStore(raw);

        store.putFloor(C, 1, true);
        store.putSendSeq(C, 1);
        store.putFloor(C, 2, true);
        store.putSendSeq(C, 2);
        store.putFloor(C, 3, true);
        store.putCarried(new VectorClock());
        store.putCarried(new VectorClock().advanceTo(C, 42));
        store.flush();

        assertThat(raw.writes()).containsExactlyInAnyOrder("put f/" + C_KEY, "put sq/" + C_KEY, "put ca");
        assertThat(raw.get("f/" + C_KEY)).isEqualTo(hex("000000000000000301"));
        assertThat(raw.get("sq/" + C_KEY)).isEqualTo(hex("0000000000000002"));
        assertThat(raw.get("ca")).isEqualTo(ClockCodecTests.ONE_OFFSET.bytes());
    }

    @Test
    void aTopicCeilingAndAPartitionsSentMarkRestoreUnderTheirOwnKeys() {
        TestStateStore raw = new TestStateStore();
        ProtocolStore store = new ProtocolStore(raw);
        Channel topic = Channel.wholeTopic(T1);

        store.putSendSeq(C, 3);
        store.putSendSeq(topic, 65_535);
        store.flush();

        assertThat(raw.keys()).contains("sq/" + C_KEY, "sq/01020304-0506-0708-090a-0b0c0d0e0f10:*");
        assertThat(raw.get("sq/01020304-0506-0708-090a-0b0c0d0e0f10:*")).isEqualTo(hex("000000000000FFFF"));
        Map<Channel, Long> restored = new ProtocolStore(raw).sendSeqs();
        assertThat(restored).containsExactly(Map.entry(topic, 65_535L), Map.entry(C, 3L));
    }

    @Test
    void flushWritesNothingWhenNothingChanged() {
        TestStateStore raw = new TestStateStore();
        ProtocolStore store = new ProtocolStore(raw);
        store.putFloor(C, 1, true);
        store.flush();
        raw.writes().clear();

        store.flush();

        assertThat(raw.writes()).isEmpty();
    }

    @Test
    void deletingAKeyRewrittenInTheSameFlushStillDeletesItFromTheStore() {
        TestStateStore raw = new TestStateStore();
        ProtocolStore store = new ProtocolStore(raw);
        store.putFloor(C, 1, true);
        store.putChannelClock(C, new VectorClock());
        store.flush();

        store.putFloor(C, 2, true);
        store.deleteInput(C, List.of(new SeqKey(C, S1)));
        store.flush();

        assertThat(raw.keys()).doesNotContain("f/" + C_KEY, "cc/" + C_KEY);
        assertThat(raw.writes()).endsWith("delete f/" + C_KEY, "delete cc/" + C_KEY, "delete q/" + C_KEY + "/m",
                "delete ds/" + C_KEY + "/" + S1);
    }

    @Test
    void aStoreKeyChannelWithoutATopicIdIsMalformed() {
        assertThatThrownBy(() -> ProtocolStore.parseChannel(":3")).isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("Malformed channel in protocol store key; key part=':3'");
        assertThatThrownBy(() -> ProtocolStore.parseChannel("no-colon")).isExactlyInstanceOf(IllegalStateException.class);
        assertThat(ProtocolStore.parseChannel(C_KEY)).isEqualTo(C);
    }

    @Test
    void aRemovedInputsQueueIsNotWrittenBackAfterItsKeysAreDeleted() {
        TestStateStore raw = new TestStateStore();
        ProtocolStore store = new ProtocolStore(raw);
        HoldQueue q = new HoldQueue(C);
        q.enqueue(entry(1), store);
        q.enqueue(entry(2), store);
        store.flush();

        q.pop(store);
        q.pop(store);
        store.deleteInput(C, List.of());
        store.flush();

        assertThat(raw.keys()).noneMatch(k -> k.startsWith("q/" + C_KEY));
    }

    @Test
    void valuesUseTheDocumentedFixedWidthLayouts() {
        TestStateStore raw = new TestStateStore();
        ProtocolStore store = new ProtocolStore(raw);

        store.putQueueMeta(C, 3, 9);
        store.putMark(new SeqKey(C, S1), new ProtocolStore.Mark(4, 77));
        store.putChannelClock(C, ClockCodecTests.MIXED_WIDE.clock().get());
        store.flush();

        assertThat(raw.get("q/" + C_KEY + "/m")).isEqualTo(hex("0000000000000003 0000000000000009"));
        assertThat(raw.get("ds/" + C_KEY + "/" + S1)).isEqualTo(hex("0000000000000004 000000000000004D"));
        assertThat(raw.get("cc/" + C_KEY)).isEqualTo(ClockCodecTests.MIXED_WIDE.bytes());
    }

    @Test
    void heldEntriesAndIndicesSurviveARestore() {
        TestStateStore raw = new TestStateStore();
        ProtocolStore store = new ProtocolStore(raw);
        HoldQueue queue = new HoldQueue(C);
        queue.enqueue(entry(5), store);
        queue.enqueue(entry(6), store);
        queue.enqueue(entry(8), store);
        store.flush();
        queue.pop(store);
        store.flush();

        Map<Channel, HoldQueue> restored = new ProtocolStore(raw).queues();

        assertThat(restored).containsOnlyKeys(C);
        HoldQueue again = restored.get(C);
        assertThat(again.headIndex()).isEqualTo(1);
        assertThat(again.tailIndex()).isEqualTo(3);
        assertThat(again.size()).isEqualTo(2);
        assertSameEntry(again.head(), entry(6));
    }

    @Test
    void restoredEntriesNameTheirQueuesChannelThroughOneInstance() {
        TestStateStore raw = new TestStateStore();
        ProtocolStore store = new ProtocolStore(raw);
        Channel other = new Channel(T2, 1);
        HoldQueue queue = new HoldQueue(C);
        queue.enqueue(entry(5), store);
        queue.enqueue(entry(6), store);
        new HoldQueue(other).enqueue(HeldEntry.borrowing(new InboundRecord(other, 9, null, null, -1, null, null, 0)),
                store);
        store.flush();

        Map<Channel, HoldQueue> restored = new ProtocolStore(raw).queues();

        HoldQueue again = restored.get(C);
        assertThat(again.head().channel()).isEqualTo(C).isSameAs(again.tail().channel());
        assertThat(restored.get(other).head().channel()).isEqualTo(other);
    }

    @Test
    void restoredClocksShareOneInstancePerChannelAndTopicIdAndConsecutiveEntriesOfASenderOneId() {
        TestStateStore raw = new TestStateStore();
        ProtocolStore store = new ProtocolStore(raw);
        UUID s2 = new UUID(S1.getMostSignificantBits(), 4);
        HoldQueue queue = new HoldQueue(C);
        List<HeldEntry> written = List.of(claiming(5, S1), claiming(6, S1), claiming(7, s2), claiming(8, s2));
        written.forEach(e -> queue.enqueue(e, store));
        store.flush();

        List<HeldEntry> restored = new ArrayList<>();
        new ProtocolStore(raw).queues().get(C).iterator().forEachRemaining(restored::add);

        assertThat(restored).hasSize(4);
        for (int i = 0; i < 4; i++) {
            assertSameEntry(restored.get(i), written.get(i));
        }
        HeldEntry first = restored.get(0);
        Channel claimed = first.clock().channel(1);
        assertThat(claimed).isEqualTo(new Channel(T2, 1));
        for (HeldEntry e : restored) {
            // the same instances in every restored clock: a claim costs its record no Channel or UUID of its own
            assertThat(e.clock().channel(1)).isSameAs(claimed);
            assertThat(e.clock().channel(1).topicId()).isSameAs(claimed.topicId());
            // a claim on the queue's own channel is the queue's instance
            assertThat(e.clock().channel(0)).isEqualTo(C).isSameAs(e.channel());
        }
        assertThat(restored.get(1).sender()).isSameAs(first.sender());
        assertThat(restored.get(2).sender()).isEqualTo(s2).isNotSameAs(first.sender());
        assertThat(restored.get(3).sender()).isSameAs(restored.get(2).sender());
    }

    @Test
    void restoredClocksAreEachTheirOwnExactCopy() {
        TestStateStore raw = new TestStateStore();
        ProtocolStore store = new ProtocolStore(raw);
        HoldQueue queue = new HoldQueue(C);
        queue.enqueue(claiming(5, S1), store);
        queue.enqueue(entry(6), store);
        store.flush();

        HoldQueue again = new ProtocolStore(raw).queues().get(C);

        // one reader decodes every clock: an entry keeping the reader's clock would now hold the last one's
        assertThat(again.head().clock()).isNotSameAs(again.tail().clock())
                .isEqualTo(claiming(5, S1).clock());
        assertThat(again.tail().clock()).isEqualTo(entry(6).clock());
    }

    @Test
    void restoreFailsWhenAnEntryTheIndicesClaimIsMissing() {
        TestStateStore raw = new TestStateStore();
        ProtocolStore store = new ProtocolStore(raw);
        HoldQueue queue = new HoldQueue(C);
        queue.enqueue(entry(5), store);
        queue.enqueue(entry(6), store);
        store.flush();
        raw.delete(ProtocolStore.entryKey(C, 1));

        assertThatThrownBy(() -> new ProtocolStore(raw).queues()).isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("Hold queue for 01020304:7 restored 1 of 2 entries; the protocol store is damaged: "
                        + "reset the application's state");
    }

    // Helpers -------------------------------------------------------------------------------

    private static HeldEntry entry(long offset) {
        return new HeldEntry(C, offset, new VectorClock().advanceSeq(new SeqKey(C, S1), offset), S1, offset,
                ByteBuffer.allocate(8).putLong(offset).array(), null, 1000 + offset);
    }

    /** An entry of {@code sender} whose clock claims an offset on another topic's channel and on its own. */
    private static HeldEntry claiming(long offset, UUID sender) {
        VectorClock clock = new VectorClock().advanceTo(new Channel(T2, 1), 100 + offset).advanceTo(C, offset - 1);
        return new HeldEntry(C, offset, clock, sender, offset, null, null, offset);
    }

    static void assertSameEntry(HeldEntry actual, HeldEntry expected) {
        assertThat(actual.offset()).isEqualTo(expected.offset());
        assertThat(actual.timestamp()).isEqualTo(expected.timestamp());
        assertThat(actual.clock()).isEqualTo(expected.clock());
        assertThat(actual.sender()).isEqualTo(expected.sender());
        assertThat(actual.seq()).isEqualTo(expected.seq());
        assertThat(actual.key()).isEqualTo(expected.key());
        assertThat(actual.value()).isEqualTo(expected.value());
        assertThat(actual.headers()).isEqualTo(expected.headers());
    }
}
