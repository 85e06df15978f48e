package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToIntFunction;

/**
 * What a stage declaration collects while {@link Stage.Builder} or {@link Stage.Stateful} is
 * used, and the rules it checks, each failing with the stage and what to do. Also the rules
 * behind {@link Stage}'s derived facts: the tick topic's name and width.
 */
final class StageSpec {

    final String name;
    final Map<String, Stage.Source> sources = new LinkedHashMap<>();
    final Map<String, Topic<?, ?>> sinks = new LinkedHashMap<>();
    Stage.Ticks ticks;
    Duration truncationInterval = Stage.DEFAULT_TRUNCATION_INTERVAL;
    Duration holdWarningAfter = Stage.DEFAULT_HOLD_WARNING;
    int maxStampBytes = Stage.DEFAULT_MAX_STAMP_BYTES;
    Stage.State state;

    StageSpec(String name) {
        this.name = name;
    }

    void source(Topic<?, ?> topic, Stage.Logic logic, boolean stateful) {
        Objects.requireNonNull(topic, "topic");
        if (sources.putIfAbsent(topic.name(), new Stage.Source(topic, logic, stateful)) != null) {
            throw new IllegalArgumentException("Topic is already a source of this stage; stage=" + name
                    + ", topic=" + topic.name() + "; declare one handler or fold per source topic");
        }
    }

    void sinks(Topic<?, ?>... topics) {
        for (Topic<?, ?> t : topics) {
            Objects.requireNonNull(t, "sink topic");
            sinks.put(t.name(), t);
        }
    }

    void ticks(Duration interval, Stage.Logic logic, boolean stateful) {
        Objects.requireNonNull(interval, "interval");
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("Tick interval must be positive; stage=" + name + ", interval="
                    + interval);
        }
        if (ticks != null) {
            throw new IllegalStateException("Ticks are already declared; stage=" + name
                    + "; declare ticks once per stage");
        }
        ticks = new Stage.Ticks(interval, logic, stateful);
    }

    void truncationInterval(Duration interval) {
        Objects.requireNonNull(interval, "interval");
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("Truncation interval must be positive; stage=" + name
                    + ", interval=" + interval);
        }
        truncationInterval = interval;
    }

    void maxStampBytes(int bytes) {
        if (bytes < Stage.MIN_MAX_STAMP_BYTES || bytes > Stage.MAX_MAX_STAMP_BYTES) {
            throw new IllegalArgumentException("Stamp bound out of range; stage=" + name + ", maxStampBytes=" + bytes
                    + "; use " + Stage.MIN_MAX_STAMP_BYTES + " to " + Stage.MAX_MAX_STAMP_BYTES + " bytes");
        }
        maxStampBytes = bytes;
    }

    void holdWarningAfter(Duration after) {
        holdWarningAfter = Objects.requireNonNull(after, "after");
    }

    Stage build() {
        if (sources.isEmpty()) {
            throw new IllegalStateException("Stage has no sources; stage=" + name
                    + "; declare at least one source with on(topic, ...)");
        }
        return new Stage(this);
    }

    /** {@code <applicationId>-<stage>-ticks}, for an application id {@link Parsley#named} accepts. */
    static String tickTopic(String applicationId, String stage) {
        // the rule's text is a constant, so this reads Parsley's rule without depending on the host tier
        if (applicationId == null || !applicationId.matches(Parsley.APPLICATION_ID_RULE)) {
            throw new IllegalArgumentException("Application id must match " + Parsley.APPLICATION_ID_RULE
                    + "; applicationId='" + applicationId + "', stage=" + stage);
        }
        return applicationId + "-" + stage + "-ticks";
    }

    /** The widest source's partition count, at least 1; a source below 1 is refused. */
    static int tickPartitions(String stage, Iterable<String> sources, ToIntFunction<String> sourcePartitions) {
        Objects.requireNonNull(sourcePartitions, "sourcePartitions");
        int widest = 1;
        for (String topic : sources) {
            int count = sourcePartitions.applyAsInt(topic);
            if (count < 1) {
                throw new IllegalArgumentException("A source topic needs at least one partition; stage=" + stage
                        + ", topic=" + topic + ", partitions=" + count);
            }
            widest = Math.max(widest, count);
        }
        return widest;
    }
}
