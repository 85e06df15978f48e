package io.github.tobyjamesclements.parsley;

import java.util.HashMap;
import java.util.Map;

/**
 * The protocol store keys (protocol.md §10.4) that the receive and send paths write on every host
 * call, rendered once per channel and per sender mark rather than once per write: rendering one
 * costs a UUID to text plus a concatenation, which was the largest single cost of
 * {@code onRecord} (docs/design-record/performance-history.md). The layouts stay defined by the static key
 * functions of {@link ProtocolStore}. Not thread-safe: one per store, like the node that owns it.
 */
final class StoreKeys {

    private final Map<Channel, ChannelKeys> channels = new HashMap<>();
    private final Map<SeqKey, String> marks = new HashMap<>();

    String frontier(Channel c) {
        return of(c).frontier();
    }

    String channelClock(Channel c) {
        return of(c).channelClock();
    }

    String queueMeta(Channel c) {
        return of(c).queueMeta();
    }

    String entry(Channel c, long index) {
        return ProtocolStore.entryKey(of(c).entryPrefix(), index);
    }

    String sendSeq(Channel c) {
        return of(c).sendSeq();
    }

    String mark(SeqKey k) {
        return marks.computeIfAbsent(k, ProtocolStore::markKey);
    }

    private ChannelKeys of(Channel c) {
        return channels.computeIfAbsent(c, ChannelKeys::of);
    }

    private record ChannelKeys(String frontier, String channelClock, String queueMeta, String entryPrefix,
            String sendSeq) {

        static ChannelKeys of(Channel c) {
            return new ChannelKeys(ProtocolStore.frontierKey(c), ProtocolStore.channelClockKey(c),
                    ProtocolStore.queueMetaKey(c), ProtocolStore.entryPrefix(c), ProtocolStore.sendSeqKey(c));
        }
    }
}
