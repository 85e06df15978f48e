package io.github.tobyjamesclements.parsley;

import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The {@link StateStore} SPI over a Kafka Streams key-value store (protocol.md §9.1): RocksDB,
 * caching disabled, changelog-backed, committed with the task's transaction.
 */
final class StreamsStateStore implements StateStore {

    private static final BytesSerializer PREFIX = new BytesSerializer();

    private final KeyValueStore<Bytes, byte[]> store;

    StreamsStateStore(KeyValueStore<Bytes, byte[]> store) {
        this.store = store;
    }

    @Override
    public byte[] get(String key) {
        return store.get(bytes(key));
    }

    @Override
    public void put(String key, byte[] value) {
        store.put(bytes(key), value);
    }

    @Override
    public void delete(String key) {
        store.delete(bytes(key));
    }

    @Override
    public void forEachPrefix(String prefix, BiConsumer<String, byte[]> action) {
        try (KeyValueIterator<Bytes, byte[]> it = store.prefixScan(bytes(prefix), PREFIX)) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                action.accept(new String(kv.key.get(), StandardCharsets.UTF_8), kv.value);
            }
        }
    }

    private static Bytes bytes(String key) {
        return Bytes.wrap(key.getBytes(StandardCharsets.UTF_8));
    }
}
