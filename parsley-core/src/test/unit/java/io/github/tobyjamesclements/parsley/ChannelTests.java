package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Channels and sequence-claim keys: text forms, order and validation (protocol.md §1.1-1.2). */
class ChannelTests {

    private static final UUID TOPIC = UUID.fromString("01020304-0506-0708-090a-0b0c0d0e0f10");
    private static final UUID SENDER = new UUID(0x1112131415161718L, 9);

    @Test
    void storeKeyFormIsTheFullLowerCaseTopicIdAndPartition() {
        assertThat(new Channel(TOPIC, 7).key()).isEqualTo("01020304-0506-0708-090a-0b0c0d0e0f10:7");
    }

    @Test
    void shortFormForMessagesIsTheTopicIdPrefixAndPartition() {
        assertThat(new Channel(TOPIC, 7)).hasToString("01020304:7");
    }

    @Test
    void sequenceKeyShortFormNamesChannelStageIdPrefixAndTask() {
        assertThat(new SeqKey(new Channel(TOPIC, 7), SENDER)).hasToString("01020304:7/11121314#9");
    }

    @Test
    void negativePartitionIsRefused() {
        assertThatThrownBy(() -> new Channel(TOPIC, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Channel partition must be >= 0; partition=-1");
    }

    @Test
    void channelsOrderBySignedTopicIdThenPartition() {
        Channel highBit = new Channel(new UUID(0x8000_0000_0000_0000L, 0), 0);
        Channel one = new Channel(new UUID(1, 0), 0);
        Channel onePartitionTwo = new Channel(new UUID(1, 0), 2);

        assertThat(highBit).isLessThan(one);
        assertThat(one).isLessThan(onePartitionTwo);
        assertThat(one.compareTo(new Channel(new UUID(1, 0), 0))).isZero();
    }

    @Test
    void channelsWhoseTopicIdsDifferOnlyInTheLowHalfOrderByItSignedAndAreNotEqual() {
        Channel negativeLow = new Channel(new UUID(1, -1L), 0);
        Channel zeroLow = new Channel(new UUID(1, 0), 0);
        Channel oneLow = new Channel(new UUID(1, 1), 0);

        assertThat(negativeLow).isLessThan(zeroLow);
        assertThat(zeroLow).isLessThan(oneLow);
        assertThat(zeroLow).isNotEqualTo(oneLow);
        assertThat(new Channel(new UUID(1, 1), 0)).isEqualTo(oneLow).hasSameHashCodeAs(oneLow);
    }

    /**
     * Seeded: order, equality and hash agree with the topic id's {@link UUID} and the partition for
     * pairs drawn from few values, so that ties in either half and in the partition are common.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1L, 2L, 3L, 20261204L})
    void orderEqualityAndHashAgreeWithTheTopicIdAndPartition(long seed) {
        System.out.println("ChannelTests seed " + seed);
        Random random = new Random(seed);
        long[] halves = {Long.MIN_VALUE, -1L, 0L, 1L, Long.MAX_VALUE};
        for (int i = 0; i < 2_000; i++) {
            UUID t1 = new UUID(halves[random.nextInt(halves.length)], halves[random.nextInt(halves.length)]);
            UUID t2 = new UUID(halves[random.nextInt(halves.length)], halves[random.nextInt(halves.length)]);
            int p1 = random.nextInt(3);
            int p2 = random.nextInt(3);
            Channel a = new Channel(t1, p1);
            Channel b = new Channel(t2, p2);
            int byTopic = t1.compareTo(t2);
            int expected = byTopic != 0 ? byTopic : Integer.compare(p1, p2);

            assertThat(Integer.signum(a.compareTo(b))).as("seed %d, %s vs %s", seed, a, b)
                    .isEqualTo(Integer.signum(expected));
            assertThat(a.equals(b)).as("seed %d", seed).isEqualTo(t1.equals(t2) && p1 == p2);
            if (a.equals(b)) {
                assertThat(a.hashCode()).isEqualTo(b.hashCode());
            }
        }
    }

    @Test
    void sequenceKeysOrderByChannelThenSignedSenderId() {
        Channel a = new Channel(TOPIC, 0);
        Channel b = new Channel(TOPIC, 1);
        UUID negative = new UUID(-1L, 0);

        assertThat(new SeqKey(a, SENDER)).isLessThan(new SeqKey(b, negative));
        assertThat(new SeqKey(a, negative)).isLessThan(new SeqKey(a, SENDER));
        assertThat(new SeqKey(a, SENDER).compareTo(new SeqKey(a, SENDER))).isZero();
    }
}
