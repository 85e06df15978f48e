package io.github.tobyjamesclements.parsley;

import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The host's transactional {@link StateStore} (H3): writes of the open transaction are staged over
 * the committed map and reach it only at {@link #commit()}; {@link #discard()} drops them.
 */
final class SimStore implements StateStore {

    private static final byte[] TOMBSTONE = new byte[0];

    private final TreeMap<String, byte[]> committed;
    private final TreeMap<String, byte[]> staged = new TreeMap<>();

    SimStore(TreeMap<String, byte[]> committed) {
        this.committed = committed;
    }

    @Override
    public byte[] get(String key) {
        byte[] v = staged.get(key);
        if (v != null) {
            return v == TOMBSTONE ? null : v;
        }
        return committed.get(key);
    }

    @Override
    public void put(String key, byte[] value) {
        staged.put(key, value.clone());
    }

    @Override
    public void delete(String key) {
        staged.put(key, TOMBSTONE);
    }

    @Override
    public void forEachPrefix(String prefix, BiConsumer<String, byte[]> action) {
        TreeMap<String, byte[]> view = new TreeMap<>(committed.subMap(prefix, true, prefix + Character.MAX_VALUE, true));
        staged.subMap(prefix, true, prefix + Character.MAX_VALUE, true).forEach((k, v) -> {
            if (v == TOMBSTONE) {
                view.remove(k);
            } else {
                view.put(k, v);
            }
        });
        view.forEach(action);
    }

    boolean dirty() {
        return !staged.isEmpty();
    }

    void commit() {
        staged.forEach((k, v) -> {
            if (v == TOMBSTONE) {
                committed.remove(k);
            } else {
                committed.put(k, v);
            }
        });
        staged.clear();
    }

    void discard() {
        staged.clear();
    }
}
