package io.github.tobyjamesclements.parsley;

import java.util.function.BiConsumer;

/**
 * Keyed bytes that commit atomically with the host step (protocol.md §9.1).
 *
 * <p>The host must commit every write of a step together with the step's consumed offsets and
 * produced records, and discard them all if the step aborts. Keys are UTF-8; prefix iteration
 * visits keys in byte-wise ascending order.
 */
interface StateStore {

    /** The value under {@code key}, or null. */
    byte[] get(String key);

    void put(String key, byte[] value);

    void delete(String key);

    /** Visits every entry whose key starts with {@code prefix}, in ascending key order. */
    void forEachPrefix(String prefix, BiConsumer<String, byte[]> action);
}
