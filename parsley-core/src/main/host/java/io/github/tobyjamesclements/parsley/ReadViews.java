package io.github.tobyjamesclements.parsley;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This instance's read views, one per running stateful stage task, by stage and partition
 * (protocol.md §17.1). A task's processor adds its view in {@code init} and removes it in
 * {@code close}; a reader finds the view of a key's partition here, or learns that this instance
 * does not run it. Thread-safe.
 */
final class ReadViews {

    private final Map<String, Map<Integer, ReadView>> views = new ConcurrentHashMap<>();

    void add(ReadView view) {
        ReadView old = views.computeIfAbsent(view.stage(), s -> new ConcurrentHashMap<>()).put(view.partition(), view);
        if (old != null && old != view) {
            old.close();
        }
    }

    void remove(ReadView view) {
        Map<Integer, ReadView> byPartition = views.get(view.stage());
        if (byPartition != null) {
            byPartition.remove(view.partition(), view);
        }
        view.close();
    }

    /** The open view of {@code stage}'s task for {@code partition}, or null. */
    ReadView get(String stage, int partition) {
        Map<Integer, ReadView> byPartition = views.get(stage);
        ReadView v = byPartition == null ? null : byPartition.get(partition);
        return v == null || v.closed() ? null : v;
    }
}
