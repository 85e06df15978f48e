package io.github.tobyjamesclements.parsley;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.BiConsumer;

/**
 * The protocol store layout (protocol.md §9-10.4): keys, value encodings and keyed incremental
 * writes over a {@link StateStore}.
 *
 * <p>Writes are buffered and reach the store at {@link #flush()}, which the node calls when the
 * host persists before a commit, so a key changed by many calls is written once, a clock is
 * encoded once per commit, at flush, and a held entry that was enqueued and delivered between two
 * commits is never encoded nor written ({@link StoreWrites}).
 *
 * <p>The queue index of a channel is written only when the queue is, or was last persisted,
 * non-empty. An empty queue's persisted indices may lag its in-memory ones: both name an empty
 * range with no entry written in it, so a restore from either is the same empty queue, and most
 * records (delivered in the call that received them) then cost two writes instead of three.
 */
final class ProtocolStore {

    static final String SCOPE = "scope";
    static final String CARRIED = "ca";

    private final StateStore store;
    private final StoreKeys keys = new StoreKeys();
    private final StoreWrites writes;

    ProtocolStore(StateStore store) {
        this.store = store;
        this.writes = new StoreWrites(store);
    }

    void flush() {
        writes.flush(keys);
    }

    /** The keys the write buffer keeps bookkeeping for ({@link StoreWrites#bookkept}). */
    int bookkept() {
        return writes.bookkept();
    }

    /** Whether writes are buffered that {@link #flush()} has not written yet. */
    boolean unflushed() {
        return writes.unflushed();
    }

    // Keys --------------------------------------------------------------------------------

    static String frontierKey(Channel c) {
        return "f/" + c.key();
    }

    static String channelClockKey(Channel c) {
        return "cc/" + c.key();
    }

    static String queueMetaKey(Channel c) {
        return "q/" + c.key() + "/m";
    }

    static String entryKey(Channel c, long index) {
        return entryKey(entryPrefix(c), index);
    }

    static String entryPrefix(Channel c) {
        return "q/" + c.key() + "/e/";
    }

    static String entryKey(String prefix, long index) {
        String hex = Long.toHexString(index);
        return prefix + "0000000000000000".substring(hex.length()) + hex;
    }

    static String sendSeqKey(Channel c) {
        return "sq/" + c.key();
    }

    static String markKey(SeqKey k) {
        return "ds/" + k.channel().key() + "/" + k.sender();
    }

    static Channel parseChannel(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalStateException("Malformed channel in protocol store key; key part='" + text + "'");
        }
        UUID topic = UUID.fromString(text.substring(0, colon));
        String partition = text.substring(colon + 1);
        return partition.equals("*") ? Channel.wholeTopic(topic) : new Channel(topic, Integer.parseInt(partition));
    }

    // Writes ------------------------------------------------------------------------------

    /** A channel's frontier floor (protocol.md §7.1), and whether this node delivered records there. */
    void putFloor(Channel c, long floor, boolean delivered) {
        byte[] value = new byte[9];
        StoreWrites.put(value, 0, floor);
        value[8] = (byte) (delivered ? 1 : 0);
        writes.put(keys.frontier(c), value, true);
    }

    void putChannelClock(Channel c, VectorClock clock) {
        writes.putClock(keys.channelClock(c), clock, true);
    }

    void putCarried(VectorClock clock) {
        writes.putClock(CARRIED, clock, true);
    }

    void putQueueMeta(Channel c, long head, long tail) {
        writes.putQueueMeta(c, head, tail);
    }

    void putEntry(Channel c, long index, HeldEntry e) {
        writes.putEntry(c, index, e, keys);
    }

    /** Replaces a buffered, not yet flushed entry by an equal one (its clock copied); others were encoded already. */
    void replaceEntry(Channel c, long index, HeldEntry e) {
        writes.replaceFresh(c, index, e);
    }

    void deleteEntry(Channel c, long index) {
        if (!writes.dropFresh(c, index)) {
            writes.delete(keys.entry(c, index), false);
        }
    }

    void putSendSeq(Channel c, long ceiling) {
        writes.put(keys.sendSeq(c), StoreWrites.longs(ceiling), true);
    }

    void putMark(SeqKey k, Mark mark) {
        writes.put(keys.mark(k), StoreWrites.longs(mark.seq(), mark.offset()), true);
    }

    /** Removes every key of a channel no longer consumed (protocol.md §7.2 step 2). */
    void deleteInput(Channel c, Iterable<SeqKey> marks) {
        writes.delete(keys.frontier(c), true);
        writes.delete(keys.channelClock(c), true);
        writes.delete(keys.queueMeta(c), true);
        writes.forgetQueue(c);
        marks.forEach(k -> writes.delete(keys.mark(k), true));
    }

    void putScope(SortedSet<Channel> consumed, SortedSet<UUID> sinks) {
        ByteBuffer b = ByteBuffer.allocate(8 + 20 * consumed.size() + 16 * sinks.size());
        b.putInt(consumed.size());
        consumed.forEach(c -> b.putLong(c.topicId().getMostSignificantBits())
                .putLong(c.topicId().getLeastSignificantBits()).putInt(c.partition()));
        b.putInt(sinks.size());
        sinks.forEach(t -> b.putLong(t.getMostSignificantBits()).putLong(t.getLeastSignificantBits()));
        writes.put(SCOPE, b.array(), true);
    }

    // Reads (init only) -------------------------------------------------------------------

    /** The recorded scope, or null on a first start. */
    Scope scope() {
        byte[] bytes = store.get(SCOPE);
        if (bytes == null) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        SortedSet<Channel> consumed = new TreeSet<>();
        for (int i = b.getInt(); i > 0; i--) {
            consumed.add(new Channel(new UUID(b.getLong(), b.getLong()), b.getInt()));
        }
        SortedSet<UUID> sinks = new TreeSet<>();
        for (int i = b.getInt(); i > 0; i--) {
            sinks.add(new UUID(b.getLong(), b.getLong()));
        }
        return new Scope(consumed, sinks);
    }

    VectorClock carried() {
        byte[] bytes = store.get(CARRIED);
        return bytes == null ? new VectorClock() : ClockCodec.decode(bytes);
    }

    /** Every channel's frontier floor; a channel this node delivered records on is added to {@code delivered}. */
    Map<Channel, Long> floors(Set<Channel> delivered) {
        Map<Channel, Long> out = new TreeMap<>();
        scan("f/", (c, v) -> {
            ByteBuffer b = ByteBuffer.wrap(v);
            out.put(c, b.getLong());
            if (b.get() == 1) {
                delivered.add(c);
            }
        });
        return out;
    }

    Map<Channel, VectorClock> channelClocks() {
        Map<Channel, VectorClock> out = new TreeMap<>();
        scan("cc/", (c, v) -> out.put(c, ClockCodec.decode(v)));
        return out;
    }

    Map<Channel, Long> sendSeqs() {
        Map<Channel, Long> out = new TreeMap<>();
        scan("sq/", (c, v) -> out.put(c, ByteBuffer.wrap(v).getLong()));
        return out;
    }

    Map<SeqKey, Mark> marks() {
        Map<SeqKey, Mark> out = new TreeMap<>();
        store.forEachPrefix("ds/", (k, v) -> {
            String rest = k.substring(3);
            int slash = rest.indexOf('/');
            ByteBuffer b = ByteBuffer.wrap(v);
            out.put(new SeqKey(parseChannel(rest.substring(0, slash)), UUID.fromString(rest.substring(slash + 1))),
                    new Mark(b.getLong(), b.getLong()));
        });
        return out;
    }

    /** Restores every hold queue in the store, failing when entries are missing (F10). */
    Map<Channel, HoldQueue> queues() {
        Map<Channel, long[]> metas = new TreeMap<>();
        Map<Channel, TreeMap<Long, byte[]>> entries = new TreeMap<>();
        store.forEachPrefix("q/", (k, v) -> {
            String rest = k.substring(2);
            int slash = rest.indexOf('/');
            Channel c = parseChannel(rest.substring(0, slash));
            String tail = rest.substring(slash + 1);
            if (tail.equals("m")) {
                ByteBuffer b = ByteBuffer.wrap(v);
                long[] m = {b.getLong(), b.getLong()};
                metas.put(c, m);
                if (m[0] != m[1]) {
                    writes.restoredNonEmpty(c);
                }
            } else {
                long index = Long.parseUnsignedLong(tail.substring(2), 16);
                entries.computeIfAbsent(c, x -> new TreeMap<>()).put(index, v);
            }
        });
        Map<Channel, HoldQueue> out = new TreeMap<>();
        // one reader for every restored clock: their claims share its channels, their arrays are exact copies
        StampReader reader = new StampReader(ChannelCache.of(metas.keySet()));
        metas.forEach((c, m) -> {
            TreeMap<Long, byte[]> found = entries.getOrDefault(c, new TreeMap<>());
            Map<Long, byte[]> live = found.subMap(m[0], m[1]);
            if (live.size() != m[1] - m[0]) {
                throw new IllegalStateException("Hold queue for " + c + " restored " + live.size() + " of "
                        + (m[1] - m[0]) + " entries; the protocol store is damaged: reset the application's state");
            }
            // decoded with the queue's one channel instance, not a parsed copy per entry
            List<HeldEntry> queued = new ArrayList<>(live.size());
            UUID sender = null;
            for (byte[] v : live.values()) {
                HeldEntry e = HeldEntryEnvelope.decode(c, v, reader, sender);
                sender = e.tagged() ? e.sender() : sender;
                queued.add(e);
            }
            out.put(c, HoldQueue.restored(c, m[0], m[1], queued));
        });
        return out;
    }

    private void scan(String prefix, BiConsumer<Channel, byte[]> action) {
        store.forEachPrefix(prefix, (k, v) -> action.accept(parseChannel(k.substring(prefix.length())), v));
    }

    /** The highest delivered sequence from one sender on one channel, and where it was delivered. */
    record Mark(long seq, long offset) {
    }

    /** The declaration the state was written under. */
    record Scope(SortedSet<Channel> consumed, SortedSet<UUID> sinks) {
    }
}
