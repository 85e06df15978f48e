package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.NodeRig.C;
import static io.github.tobyjamesclements.parsley.NodeRig.U;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The record the host feeds to the protocol (protocol.md §3.1) and the half-tag check F3. */
class InboundRecordTests {

    @Test
    void senderWithoutASequenceIsRefused() {
        assertThatThrownBy(() -> new InboundRecord(C, 4, null, U, -1, null, null, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Sender and sequence must be tagged together; channel=" + C + ", offset=4, sender=" + U
                        + ", seq=-1");
    }

    @Test
    void sequenceWithoutASenderIsRefused() {
        assertThatThrownBy(() -> new InboundRecord(C, 4, null, null, 0, null, null, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tagged together");
    }

    @Test
    void negativeOffsetIsRefused() {
        assertThatThrownBy(() -> new InboundRecord(C, -1, null, null, -1, null, null, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Record offset must be >= 0; channel=" + C + ", offset=-1");
    }

    @Test
    void missingChannelIsRefused() {
        assertThatThrownBy(() -> new InboundRecord(null, 0, null, null, -1, null, null, 0))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("channel");
    }

    @Test
    void theHostsOwnEntryIsCheckedAsARecordIs() {
        // the host builds the held entry itself (HeldEntry.received): the same F3 and offset checks
        assertThatThrownBy(() -> HeldEntry.received(C, 4, null, U, -1, null, null, 0, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tagged together");
        assertThatThrownBy(() -> HeldEntry.received(C, 4, null, null, 0, null, null, 0, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tagged together");
        assertThatThrownBy(() -> HeldEntry.received(C, -1, null, null, -1, null, null, 0, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Record offset must be >= 0; channel=" + C + ", offset=-1");
        assertThat(HeldEntry.received(C, 0, null, null, -1, null, null, 0, null).clock().isEmpty()).isTrue();
    }

    @Test
    void recordWithSenderAndSequenceZeroIsTagged() {
        InboundRecord r = new InboundRecord(C, 0, null, U, 0, null, null, 0);

        assertThat(r.tagged()).isTrue();
        assertThat(HeldEntry.borrowing(r).tagged()).isTrue();
    }

    @Test
    void recordWithNeitherSenderNorSequenceIsUntaggedAndHeldWithAnEmptyClock() {
        InboundRecord r = new InboundRecord(C, 0, null, null, -1, null, null, 0);

        assertThat(r.tagged()).isFalse();
        assertThat(HeldEntry.borrowing(r).tagged()).isFalse();
        assertThat(HeldEntry.borrowing(r).clock().isEmpty()).isTrue();
    }
}
