package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;

/**
 * An in-memory {@link StateStore} for unit tests: a sorted map that commits every write at once,
 * and a log of the writes in order ({@code put <key>}, {@code delete <key>}). A "restart" is a new
 * node constructed over the same instance, which then holds exactly what the previous node
 * flushed. (The simulator's {@code SimStore} adds staging and commit on top of the same idea.)
 */
final class TestStateStore implements StateStore {

    private final TreeMap<String, byte[]> entries = new TreeMap<>();
    private final List<String> writes = new ArrayList<>();

    @Override
    public byte[] get(String key) {
        byte[] value = entries.get(key);
        return value == null ? null : value.clone();
    }

    @Override
    public void put(String key, byte[] value) {
        writes.add("put " + key);
        entries.put(key, value.clone());
    }

    @Override
    public void delete(String key) {
        writes.add("delete " + key);
        entries.remove(key);
    }

    @Override
    public void forEachPrefix(String prefix, BiConsumer<String, byte[]> action) {
        for (Map.Entry<String, byte[]> e : entries.tailMap(prefix, true).entrySet()) {
            if (!e.getKey().startsWith(prefix)) {
                return;
            }
            action.accept(e.getKey(), e.getValue().clone());
        }
    }

    /** The writes so far, oldest first; tests may clear it to watch the next flush. */
    List<String> writes() {
        return writes;
    }

    /** Every key present, sorted. */
    SortedSet<String> keys() {
        return new TreeSet<>(entries.keySet());
    }
}
