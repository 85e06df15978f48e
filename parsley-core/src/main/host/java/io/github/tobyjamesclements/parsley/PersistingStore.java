package io.github.tobyjamesclements.parsley;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

/**
 * The protocol store as Kafka Streams registers it: a cached, logged RocksDB key-value store whose
 * cache flush first runs the stage task's persist hook (protocol.md §9.1).
 *
 * <p>Kafka Streams gives a processor no callback before a commit, but it flushes every registered
 * store's cache in {@code StreamTask.prepareCommit}, before the record collector is flushed and the
 * transaction commits with the consumed offsets. Running the hook there lets a {@link CausalNode}
 * keep its writes buffered across records and write each changed key once per commit, in the
 * commit's own transaction. That flush also runs when a task is closed dirty; what it writes then
 * is aborted with the transaction and wiped with the state directory, as any uncommitted write.
 * This relies on Kafka Streams' internal {@code WrappedStateStore}, whose cache-flush contract the
 * crash, restore and rebalance ITs pin for the managed Kafka version (they fail without the hook).
 *
 * <p>Every other call is delegated unchanged. Single-threaded, like the stream thread that owns it.
 */
final class PersistingStore extends WrappedStateStore<KeyValueStore<Bytes, byte[]>, Bytes, byte[]>
        implements KeyValueStore<Bytes, byte[]> {

    private static final Runnable NONE = () -> { };

    private Runnable beforeCommit = NONE;

    private PersistingStore(KeyValueStore<Bytes, byte[]> wrapped) {
        super(wrapped);
    }

    /** A builder of the cached, logged RocksDB store named {@code name}, wrapped in a persisting store. */
    static StoreBuilder<KeyValueStore<Bytes, byte[]>> builder(String name) {
        return builder(Stores.persistentKeyValueStore(name));
    }

    /** A builder of a cached, logged store from {@code supplier}, wrapped in a persisting store. */
    static StoreBuilder<KeyValueStore<Bytes, byte[]>> builder(KeyValueBytesStoreSupplier supplier) {
        return new Builder(Stores.keyValueStoreBuilder(supplier, Serdes.Bytes(), Serdes.ByteArray()).withCachingEnabled());
    }

    /**
     * The persisting store under the handle a processor got from {@code getStateStore}.
     *
     * @throws IllegalStateException when the store was not built by {@link #builder}: without the
     *     hook nothing a node buffers would ever be committed
     */
    static PersistingStore of(StateStore handle) {
        StateStore s = handle;
        while (!(s instanceof PersistingStore) && s instanceof WrappedStateStore<?, ?, ?> w) {
            s = w.wrapped();
        }
        if (s instanceof PersistingStore p) {
            return p;
        }
        throw new IllegalStateException("Protocol store without its persist hook; store=" + handle.name()
                + "; the store must be built by Parsley's topology (Parsley.topology), not replaced (fail closed)");
    }

    /** Sets what runs before each cache flush, that is before each commit of this store's task. */
    void beforeCommit(Runnable hook) {
        this.beforeCommit = hook;
    }

    @Override
    public void flushCache() {
        beforeCommit.run();
        super.flushCache();
    }

    @Override
    public void put(Bytes key, byte[] value) {
        wrapped().put(key, value);
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        return wrapped().putIfAbsent(key, value);
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        wrapped().putAll(entries);
    }

    @Override
    public byte[] delete(Bytes key) {
        return wrapped().delete(key);
    }

    @Override
    public byte[] get(Bytes key) {
        return wrapped().get(key);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return wrapped().range(from, to);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return wrapped().reverseRange(from, to);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return wrapped().all();
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return wrapped().reverseAll();
    }

    @Override
    public <PS extends org.apache.kafka.common.serialization.Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(
            P prefix, PS prefixKeySerializer) {
        return wrapped().prefixScan(prefix, prefixKeySerializer);
    }

    @Override
    public long approximateNumEntries() {
        return wrapped().approximateNumEntries();
    }

    /** Builds the standard store and wraps it; every setting goes to the standard builder. */
    private record Builder(StoreBuilder<KeyValueStore<Bytes, byte[]>> inner)
            implements StoreBuilder<KeyValueStore<Bytes, byte[]>> {

        @Override
        public StoreBuilder<KeyValueStore<Bytes, byte[]>> withCachingEnabled() {
            return new Builder(inner.withCachingEnabled());
        }

        @Override
        public StoreBuilder<KeyValueStore<Bytes, byte[]>> withCachingDisabled() {
            return new Builder(inner.withCachingDisabled());
        }

        @Override
        public StoreBuilder<KeyValueStore<Bytes, byte[]>> withLoggingEnabled(Map<String, String> config) {
            return new Builder(inner.withLoggingEnabled(config));
        }

        @Override
        public StoreBuilder<KeyValueStore<Bytes, byte[]>> withLoggingDisabled() {
            return new Builder(inner.withLoggingDisabled());
        }

        @Override
        public KeyValueStore<Bytes, byte[]> build() {
            return new PersistingStore(inner.build());
        }

        @Override
        public Map<String, String> logConfig() {
            return inner.logConfig();
        }

        @Override
        public boolean loggingEnabled() {
            return inner.loggingEnabled();
        }

        @Override
        public String name() {
            return inner.name();
        }
    }
}
