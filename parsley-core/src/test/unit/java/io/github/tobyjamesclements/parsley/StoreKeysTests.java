package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class StoreKeysTests {

    private static final Channel C = new Channel(new UUID(0x0102030405060708L, 0x090A0B0C0D0E0F10L), 7);
    private static final Channel NEGATIVE = new Channel(new UUID(0x8000000000000000L, 1), Integer.MAX_VALUE);
    private static final UUID SENDER = new UUID(0x1112131415161718L, 0x191A1B1C1D1E1F20L);

    private final StoreKeys keys = new StoreKeys();

    @Test
    void renderedKeysEqualTheStoreLayout() {
        for (int round = 0; round < 2; round++) {
            for (Channel c : new Channel[] {C, NEGATIVE}) {
                assertThat(keys.frontier(c)).isEqualTo(ProtocolStore.frontierKey(c));
                assertThat(keys.channelClock(c)).isEqualTo(ProtocolStore.channelClockKey(c));
                assertThat(keys.queueMeta(c)).isEqualTo(ProtocolStore.queueMetaKey(c));
                assertThat(keys.sendSeq(c)).isEqualTo(ProtocolStore.sendSeqKey(c));
                assertThat(keys.mark(new SeqKey(c, SENDER))).isEqualTo(ProtocolStore.markKey(new SeqKey(c, SENDER)));
                for (long index : new long[] {0, 1, 0xABC, Long.MAX_VALUE}) {
                    assertThat(keys.entry(c, index)).isEqualTo(ProtocolStore.entryKey(c, index));
                }
            }
        }
    }

    @Test
    void keysFollowTheProtocolTextForm() {
        assertThat(keys.frontier(C)).isEqualTo("f/01020304-0506-0708-090a-0b0c0d0e0f10:7");
        assertThat(keys.queueMeta(C)).isEqualTo("q/01020304-0506-0708-090a-0b0c0d0e0f10:7/m");
        assertThat(keys.entry(C, 1)).isEqualTo("q/01020304-0506-0708-090a-0b0c0d0e0f10:7/e/0000000000000001");
        assertThat(keys.mark(new SeqKey(C, SENDER)))
                .isEqualTo("ds/01020304-0506-0708-090a-0b0c0d0e0f10:7/11121314-1516-1718-191a-1b1c1d1e1f20");
    }
}
