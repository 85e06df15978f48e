package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The write buffer of a {@link ProtocolStore}: what the host calls since the last flush changed,
 * written at {@link #flush} (before the host commits). A key changed several times is written once,
 * with its last value, in the order its first change came; a clock is encoded at flush, once,
 * however often it changed; a held entry enqueued and deleted between two flushes is never encoded
 * nor written.
 *
 * <p>Its bookkeeping lives in objects kept from call to call (one per key, one per queue), so a
 * record delivered in the call that received it allocates nothing here beyond the bytes of the
 * values that reach the store. Not thread-safe, like the node that owns it.
 */
final class StoreWrites {

    private static final byte[] DELETE = new byte[0];

    private final StateStore store;
    private final Map<String, Write> writes = new HashMap<>();
    private final List<Write> pending = new ArrayList<>();
    private final Map<Channel, Queue> queues = new HashMap<>();
    private final List<Queue> changedQueues = new ArrayList<>();
    private final List<Queue> freshQueues = new ArrayList<>();

    StoreWrites(StateStore store) {
        this.store = store;
    }

    /**
     * How many keys this buffer keeps bookkeeping for: every kept key once changed, and a one-time
     * key (a held entry's) only until the flush that writes it, so the count does not grow with
     * the entries a node holds and releases over its life.
     */
    int bookkept() {
        return writes.size();
    }

    /** Whether anything is buffered that {@link #flush} would write. */
    boolean unflushed() {
        return !pending.isEmpty() || !changedQueues.isEmpty() || !freshQueues.isEmpty();
    }

    /** Writes the buffered changes: queue indices first, then keys in first-change order, then entries. */
    void flush(StoreKeys keys) {
        for (Queue q : changedQueues) {
            boolean empty = q.head == q.tail;
            if (!empty || q.persistedNonEmpty) {
                put(keys.queueMeta(q.channel), longs(q.head, q.tail), true);
            }
            q.persistedNonEmpty = !empty;
            q.changed = false;
        }
        changedQueues.clear();
        for (Write w : pending) {
            if (w.value == DELETE) {
                store.delete(w.key);
            } else {
                store.put(w.key, w.clock != null ? ClockCodec.encode(w.clock) : w.value);
            }
            w.clear();
            if (!w.kept) {
                writes.remove(w.key);
            }
        }
        pending.clear();
        for (Queue q : freshQueues) {
            q.flushFresh(store::put, keys);
        }
        freshQueues.clear();
    }

    /**
     * Buffers a value; {@code kept} keys (the per-channel keys every call writes) keep their
     * bookkeeping after the flush, others (entry keys, written once) drop it.
     */
    void put(String key, byte[] value, boolean kept) {
        Write w = write(key, kept);
        w.value = value;
        w.clock = null;
    }

    /** Buffers a clock, encoded at flush as it is then. */
    void putClock(String key, VectorClock clock, boolean kept) {
        Write w = write(key, kept);
        w.value = null;
        w.clock = clock;
    }

    void delete(String key, boolean kept) {
        put(key, DELETE, kept);
    }

    void putQueueMeta(Channel c, long head, long tail) {
        Queue q = queue(c);
        q.head = head;
        q.tail = tail;
        if (!q.changed) {
            q.changed = true;
            changedQueues.add(q);
        }
    }

    /** Notes a restored queue index that names a non-empty range. */
    void restoredNonEmpty(Channel c) {
        queue(c).persistedNonEmpty = true;
    }

    /** Forgets a removed input's queue: its index is deleted, not rewritten. */
    void forgetQueue(Channel c) {
        Queue q = queues.remove(c);
        if (q != null) {
            changedQueues.remove(q);
            freshQueues.remove(q);
        }
    }

    void putEntry(Channel c, long index, HeldEntry e, StoreKeys keys) {
        Queue q = queue(c);
        if (!q.fresh.isEmpty() && index != q.freshFrom + q.fresh.size()) {
            q.flushFresh((key, value) -> put(key, value, false), keys);
        }
        if (q.fresh.isEmpty()) {
            q.freshFrom = index;
            if (!freshQueues.contains(q)) {
                freshQueues.add(q);
            }
        }
        q.fresh.add(e);
    }

    /** Swaps a buffered entry for an equal one; an entry no longer buffered was encoded already and stays as it was. */
    void replaceFresh(Channel c, long index, HeldEntry e) {
        Queue q = queues.get(c);
        if (q != null && index >= q.freshFrom && index < q.freshFrom + q.fresh.size()
                && q.fresh.get((int) (index - q.freshFrom)) != null) {
            q.fresh.set((int) (index - q.freshFrom), e);
        }
    }

    /** Drops an entry put since the last flush; false when it was not, and the store must delete it. */
    boolean dropFresh(Channel c, long index) {
        Queue q = queues.get(c);
        if (q == null || index < q.freshFrom || index >= q.freshFrom + q.fresh.size()) {
            return false;
        }
        return q.fresh.set((int) (index - q.freshFrom), null) != null;
    }

    static byte[] longs(long a) {
        byte[] b = new byte[8];
        put(b, 0, a);
        return b;
    }

    static byte[] longs(long a, long b) {
        byte[] out = new byte[16];
        put(out, 0, a);
        put(out, 8, b);
        return out;
    }

    static void put(byte[] b, int at, long v) {
        for (int i = 0; i < 8; i++) {
            b[at + i] = (byte) (v >>> (56 - 8 * i));
        }
    }

    private Write write(String key, boolean kept) {
        Write w = writes.get(key);
        if (w == null) {
            w = new Write(key, kept);
            writes.put(key, w);
        }
        if (!w.queued) {
            w.queued = true;
            pending.add(w);
        }
        return w;
    }

    private Queue queue(Channel c) {
        return queues.computeIfAbsent(c, Queue::new);
    }

    /** One key's buffered change: bytes, a clock to encode, or {@link #DELETE}. */
    private static final class Write {
        final String key;
        final boolean kept;
        byte[] value;
        VectorClock clock;
        boolean queued;

        Write(String key, boolean kept) {
            this.key = key;
            this.kept = kept;
        }

        void clear() {
            value = null;
            clock = null;
            queued = false;
        }
    }

    /** One queue's index as last set, and the entries put since the last flush, which hold consecutive indices. */
    private static final class Queue {
        final Channel channel;
        final List<HeldEntry> fresh = new ArrayList<>();
        long freshFrom;
        long head;
        long tail;
        boolean changed;
        /** Whether the persisted index names a non-empty range. */
        boolean persistedNonEmpty;

        Queue(Channel channel) {
            this.channel = channel;
        }

        /**
         * Writes the run's surviving entries through {@code to}: straight to the store at the
         * flush, or into the buffered writes when a put does not continue the run.
         */
        void flushFresh(BiConsumer<String, byte[]> to, StoreKeys keys) {
            for (int i = 0; i < fresh.size(); i++) {
                HeldEntry e = fresh.get(i);
                if (e != null) {
                    to.accept(keys.entry(channel, freshFrom + i), HeldEntryEnvelope.encode(e));
                }
            }
            fresh.clear();
        }
    }
}
