package io.github.tobyjamesclements.parsley;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * A {@link StateStore} over a {@link TreeMap}, so the benchmarks measure the protocol and not a
 * storage engine. String order equals byte-wise UTF-8 order for the ASCII keys the protocol writes.
 */
final class InMemoryStateStore implements StateStore {

    private final TreeMap<String, byte[]> entries = new TreeMap<>();

    @Override
    public byte[] get(String key) {
        return entries.get(key);
    }

    @Override
    public void put(String key, byte[] value) {
        entries.put(key, value);
    }

    @Override
    public void delete(String key) {
        entries.remove(key);
    }

    @Override
    public void forEachPrefix(String prefix, BiConsumer<String, byte[]> action) {
        for (Map.Entry<String, byte[]> e : entries.tailMap(prefix, true).entrySet()) {
            if (!e.getKey().startsWith(prefix)) {
                return;
            }
            action.accept(e.getKey(), e.getValue());
        }
    }

    int size() {
        return entries.size();
    }
}
