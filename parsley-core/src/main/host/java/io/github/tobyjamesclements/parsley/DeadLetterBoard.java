package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per stage, what this instance's tasks dead-lettered: written by stream threads as they
 * dead-letter, read by {@link CausalStreams#deadLetters()} from any thread. It outlives tasks, so
 * a task that migrates away and back keeps counting where it left off.
 */
final class DeadLetterBoard {

    private record Tally(long count, DeadLetterReport.LastError last) {
    }

    private final String topic;
    private final List<String> stages;
    private final Map<String, Tally> byStage = new ConcurrentHashMap<>();

    DeadLetterBoard(String topic, List<String> stages) {
        this.topic = topic;
        this.stages = List.copyOf(stages);
    }

    String topic() {
        return topic;
    }

    void record(String stage, DeadLetterReport.LastError error) {
        byStage.merge(stage, new Tally(1, error), (old, one) -> new Tally(old.count() + 1, one.last()));
    }

    /** One report per stage, in declaration order; stages that dead-lettered nothing report zero. */
    List<DeadLetterReport> snapshot() {
        List<DeadLetterReport> out = new ArrayList<>();
        for (String stage : stages) {
            Tally t = byStage.get(stage);
            out.add(t == null ? new DeadLetterReport(stage, topic, 0, null)
                    : new DeadLetterReport(stage, topic, t.count(), t.last()));
        }
        return out;
    }
}
