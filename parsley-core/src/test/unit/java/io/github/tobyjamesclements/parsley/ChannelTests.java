package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;
import org.junit.jupiter.api.Test;

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
    void sequenceKeysOrderByChannelThenSignedSenderId() {
        Channel a = new Channel(TOPIC, 0);
        Channel b = new Channel(TOPIC, 1);
        UUID negative = new UUID(-1L, 0);

        assertThat(new SeqKey(a, SENDER)).isLessThan(new SeqKey(b, negative));
        assertThat(new SeqKey(a, negative)).isLessThan(new SeqKey(a, SENDER));
        assertThat(new SeqKey(a, SENDER).compareTo(new SeqKey(a, SENDER))).isZero();
    }
}
