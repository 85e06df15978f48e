package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Held entries are encoded at flush: the bytes written are unchanged, and an entry gone by then costs nothing. */
class ProtocolStoreDeferredEncodingTests {

    private static final Channel C = new Channel(new UUID(0x0102030405060708L, 0x090A0B0C0D0E0F10L), 3);
    private static final UUID SENDER = new UUID(0x1112131415161718L, 0x191A1B1CL);

    private final TestStateStore backing = new TestStateStore();
    private final ProtocolStore store = new ProtocolStore(backing);

    @Test
    void flushedEntryIsWrittenWithTheEnvelopeBytes() {
        HeldEntry entry = entry();

        store.putEntry(C, 7, entry);
        store.flush();

        assertThat(backing.keys()).containsExactly(ProtocolStore.entryKey(C, 7));
        assertThat(backing.get(ProtocolStore.entryKey(C, 7))).isEqualTo(HeldEntryEnvelope.encode(entry));
        assertThat(HeldEntryEnvelope.decode(C, backing.get(ProtocolStore.entryKey(C, 7))).clock())
                .isEqualTo(entry.clock());
    }

    @Test
    void entryDeletedInTheSameCallIsNeverWritten() {
        store.putEntry(C, 7, entry());
        store.deleteEntry(C, 7);
        store.flush();

        assertThat(backing.writes()).isEmpty();
    }

    @Test
    void entryDeletedInALaterCallIsDeletedFromTheStore() {
        store.putEntry(C, 7, entry());
        store.flush();
        store.deleteEntry(C, 7);
        store.flush();

        assertThat(backing.keys()).isEmpty();
        assertThat(backing.writes()).containsExactly("put " + ProtocolStore.entryKey(C, 7),
                "delete " + ProtocolStore.entryKey(C, 7));
    }

    @Test
    void entriesAtIndicesThatDoNotFollowEachOtherAreEachWritten() {
        store.putEntry(C, 7, entry());
        store.putEntry(C, 8, entry());
        store.putEntry(C, 12, entry());
        store.flush();

        assertThat(backing.keys()).containsExactly(ProtocolStore.entryKey(C, 7), ProtocolStore.entryKey(C, 8),
                ProtocolStore.entryKey(C, 12));
    }

    @Test
    void anEntryWrittenAheadOfItsRunAndDeletedInTheSameCallLeavesNothing() {
        store.putEntry(C, 7, entry());
        store.putEntry(C, 9, entry());
        store.deleteEntry(C, 7);
        store.flush();

        assertThat(backing.keys()).containsExactly(ProtocolStore.entryKey(C, 9));
    }

    private static HeldEntry entry() {
        VectorClock clock = new VectorClock().advanceTo(new Channel(SENDER, 0), 1_000_000)
                .advanceSeq(new SeqKey(C, SENDER), 4);
        return new HeldEntry(C, 42, clock, SENDER, 9, new byte[] {1, 2}, null, 1234);
    }
}
