package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest payload-free hold snapshot of every local task of one application, published by
 * each task's processor on its 500 ms punctuator and read by {@link CausalStreams#explainHolds()}
 * from any thread.
 */
final class HoldBoard {

    private final Map<String, List<HeldRecord>> byTask = new ConcurrentHashMap<>();

    void publish(String taskKey, List<HeldRecord> heads) {
        if (heads.isEmpty()) {
            byTask.remove(taskKey);
        } else {
            byTask.put(taskKey, List.copyOf(heads));
        }
    }

    void remove(String taskKey) {
        byTask.remove(taskKey);
    }

    /** Every local held head, longest held first. */
    List<HeldRecord> snapshot() {
        List<HeldRecord> out = new ArrayList<>();
        byTask.values().forEach(out::addAll);
        out.sort(Comparator.comparing(HeldRecord::heldFor).reversed()
                .thenComparing(HeldRecord::stage).thenComparing(HeldRecord::topic)
                .thenComparingInt(HeldRecord::partition));
        return out;
    }
}
