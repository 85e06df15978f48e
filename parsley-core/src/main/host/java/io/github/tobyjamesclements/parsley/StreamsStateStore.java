package io.github.tobyjamesclements.parsley;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The {@link StateStore} SPI over a Kafka Streams key-value store (protocol.md §9.1): RocksDB,
 * record cache in front, changelog-backed, committed with the task's transaction.
 *
 * <p>A cached Streams store cannot take a write without a record context, and
 * {@code Processor.init} has none. So writes made while the node is constructed (its scope and
 * any rescope deletions) are held here and applied by {@link #applyDeferred()}, which the
 * processor calls first in every {@code process} and punctuation. Nothing is lost by the delay:
 * nothing the task does commits before its first step, and a task that never steps simply
 * repeats the same init on its next start.
 */
final class StreamsStateStore implements StateStore {

    private static final BytesSerializer PREFIX = new BytesSerializer();
    /**
     * Bound on the key cache. The per-channel keys a task writes every record are a handful;
     * hold-queue entry keys are unbounded and each is used about twice, so the cache is dropped
     * whole when it fills rather than growing with them.
     */
    static final int KEY_CACHE_LIMIT = 256;

    /**
     * Store keys as {@link Bytes}, by key: the node writes the same per-channel keys on every
     * record, and a cached wrapper also keeps the hash the record cache computes on each write.
     */
    private final Map<String, Bytes> keys = new HashMap<>();

    private final KeyValueStore<Bytes, byte[]> store;
    /** Writes from before the first step, in order, a delete as a null value; null once applied. */
    private Map<Bytes, byte[]> deferred = new LinkedHashMap<>();

    StreamsStateStore(KeyValueStore<Bytes, byte[]> store) {
        this.store = store;
    }

    /** Applies the writes of construction; cheap and idempotent afterwards. */
    void applyDeferred() {
        if (deferred == null) {
            return;
        }
        deferred.forEach(store::put);
        deferred = null;
    }

    @Override
    public byte[] get(String key) {
        Bytes k = bytes(key);
        if (deferred != null && deferred.containsKey(k)) {
            return deferred.get(k);
        }
        return store.get(k);
    }

    @Override
    public void put(String key, byte[] value) {
        if (deferred != null) {
            deferred.put(bytes(key), value);
        } else {
            store.put(bytes(key), value);
        }
    }

    /**
     * Deletes by writing null, which {@code KeyValueStore#put} defines as a delete. Streams' cached
     * store answers {@code delete} with the old value, so it first reads the key (from RocksDB when
     * the cache misses, as it does for every hold-queue entry restored from the changelog) and caches
     * what it read; the node never wants the old value, and a null put writes only the tombstone.
     */
    @Override
    public void delete(String key) {
        if (deferred != null) {
            deferred.put(bytes(key), null);
        } else {
            store.put(bytes(key), null);
        }
    }

    /**
     * Scans the store itself. The node scans only while restoring, before it writes anything, so
     * a scan never needs to see deferred writes; one that would is a programming error.
     */
    @Override
    public void forEachPrefix(String prefix, BiConsumer<String, byte[]> action) {
        if (deferred != null && !deferred.isEmpty()) {
            throw new IllegalStateException("Prefix scan after deferred writes; prefix=" + prefix
                    + "; the protocol store is scanned only before the node's first write");
        }
        try (KeyValueIterator<Bytes, byte[]> it = store.prefixScan(bytes(prefix), PREFIX)) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                action.accept(new String(kv.key.get(), StandardCharsets.UTF_8), kv.value);
            }
        }
    }

    private Bytes bytes(String key) {
        Bytes k = keys.get(key);
        if (k == null) {
            if (keys.size() >= KEY_CACHE_LIMIT) {
                keys.clear();
            }
            k = Bytes.wrap(key.getBytes(StandardCharsets.UTF_8));
            keys.put(key, k);
        }
        return k;
    }
}
