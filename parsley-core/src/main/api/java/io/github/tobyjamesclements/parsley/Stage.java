package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;

/**
 * A causal stage: user logic wired to the topics it consumes and emits to. Each task of a stage
 * delivers records to its logic only after everything they depend on, on the channels it
 * consumes, has been delivered; every emission is stamped with the task's causal clock.
 *
 * <p>A topic may be a source of several stages of one application (fan-out): each orders it
 * against its own sources only, with its own hold queues, fold state and sender identity. Within
 * one stage a topic is a source once; a tick topic is never a declared source.
 *
 * <p>Immutable and thread-safe; built by {@link #named(String)}. The name keys the stage's state
 * stores, changelogs, tick topic and sender ids, so it must stay stable across deployments.
 */
public final class Stage {

    /**
     * The rule a stage name must match, as a regular expression: letters, digits and hyphens. The
     * name becomes part of store, changelog and tick topic names, which admit no other characters.
     */
    public static final String NAME_RULE = "[a-zA-Z0-9-]+";

    /** How often clocks are truncated unless {@link Builder#truncationInterval} says otherwise. */
    public static final Duration DEFAULT_TRUNCATION_INTERVAL = Duration.ofMinutes(10);

    /** How long a record may stay held before a warning, unless {@link Builder#holdWarningAfter} says otherwise. */
    public static final Duration DEFAULT_HOLD_WARNING = Duration.ofSeconds(30);

    /**
     * The most bytes a stamp (a record's {@code vc} header value) may take unless
     * {@link Builder#maxStampBytes} says otherwise: 64 KiB, a sixteenth of Kafka's default
     * {@code max.request.size} and {@code message.max.bytes}.
     */
    public static final int DEFAULT_MAX_STAMP_BYTES = 64 * 1024;

    /** The smallest stamp bound a stage accepts: below it even a small pipeline's stamps would not fit. */
    public static final int MIN_MAX_STAMP_BYTES = 1024;

    /** The largest stamp bound a stage accepts: Kafka's default {@code max.request.size}, 1 MiB. */
    public static final int MAX_MAX_STAMP_BYTES = 1024 * 1024;

    private static final Pattern NAME = Pattern.compile(NAME_RULE);

    private final String name;
    private final Map<String, Source> sources;
    private final Map<String, Topic<?, ?>> sinks;
    private final Ticks ticks;
    private final Duration truncationInterval;
    private final Duration holdWarningAfter;
    private final int maxStampBytes;
    private final State state;

    Stage(StageSpec spec) {
        this.name = spec.name;
        this.sources = Collections.unmodifiableMap(new LinkedHashMap<>(spec.sources));
        this.sinks = Collections.unmodifiableMap(new LinkedHashMap<>(spec.sinks));
        this.ticks = spec.ticks;
        this.truncationInterval = spec.truncationInterval;
        this.holdWarningAfter = spec.holdWarningAfter;
        this.maxStampBytes = spec.maxStampBytes;
        this.state = spec.state;
    }

    /**
     * Starts a stage declaration.
     *
     * @param name the stage name, matching {@code [a-zA-Z0-9-]+}
     * @return a builder, never null
     * @throws IllegalArgumentException if the name does not match
     */
    public static Builder named(String name) {
        Objects.requireNonNull(name, "name");
        if (!isValidName(name)) {
            throw new IllegalArgumentException("Stage name must match " + NAME_RULE + "; name='" + name + "'");
        }
        return new Builder(new StageSpec(name));
    }

    /**
     * Whether {@link #named} accepts a name: whether it matches {@link #NAME_RULE}.
     *
     * @param name a candidate name, never null
     * @return true if a stage may have this name
     */
    public static boolean isValidName(String name) {
        return NAME.matcher(Objects.requireNonNull(name, "name")).matches();
    }

    /**
     * The stage name.
     *
     * @return the name, never null
     */
    public String name() {
        return name;
    }

    /**
     * The source topic names, in declaration order (the tick topic excluded).
     *
     * @return an unmodifiable list, never null
     */
    public List<String> sourceTopics() {
        return List.copyOf(sources.keySet());
    }

    /**
     * The declared sink topic names, in declaration order (the tick topic excluded).
     *
     * @return an unmodifiable list, never null
     */
    public List<String> sinkTopics() {
        return List.copyOf(sinks.keySet());
    }

    /**
     * The tick interval, if the stage declares ticks.
     *
     * @return the interval, or empty
     */
    public Optional<Duration> tickInterval() {
        return ticks().map(Ticks::interval);
    }

    /**
     * Whether the stage keeps fold state.
     *
     * @return true for a stage built through {@link Builder#state}
     */
    public boolean stateful() {
        return state != null;
    }

    /**
     * Whether a source topic is consumed by a fold (rather than a handler).
     *
     * @param sourceTopic a source topic name
     * @return true for a fold, false for a handler or a topic that is not a source
     */
    public boolean foldsOver(String sourceTopic) {
        Source s = sources.get(sourceTopic);
        return s != null && s.stateful();
    }

    Map<String, Source> sources() {
        return sources;
    }

    Map<String, Topic<?, ?>> sinks() {
        return sinks;
    }

    Optional<Ticks> ticks() {
        return Optional.ofNullable(ticks);
    }

    Duration truncationInterval() {
        return truncationInterval;
    }

    Duration holdWarningAfter() {
        return holdWarningAfter;
    }

    /** The most bytes one of this stage's stamps may take (docs/protocol.md §10.2). */
    int maxStampBytes() {
        return maxStampBytes;
    }

    Optional<State> state() {
        return Optional.ofNullable(state);
    }

    /**
     * The topic this stage ticks through in an application: {@code <applicationId>-<stage>-ticks}.
     * The name is defined whether or not the stage declares ticks; only a stage with ticks uses it.
     * Nothing creates it but {@code parsley.topics.create} in the Spring Boot starter.
     *
     * @param applicationId the application's id, as {@link Parsley#named} accepts it
     * @return the topic name, never null
     * @throws IllegalArgumentException if the id is not a valid application id
     */
    public String tickTopic(String applicationId) {
        return StageSpec.tickTopic(applicationId, name);
    }

    /**
     * The partition count this stage's {@linkplain #tickTopic tick topic} must have: that of its
     * widest source, so that every task ticks on its own partition and no tick partition belongs
     * to no task. Streams startup refuses a tick topic of any other width.
     *
     * @param sourcePartitions the partition count of each of this stage's source topics, never null
     * @return the widest source's partition count, at least 1
     * @throws IllegalArgumentException if a source's count is below 1
     */
    public int tickPartitions(ToIntFunction<String> sourcePartitions) {
        return StageSpec.tickPartitions(name, sources.keySet(), sourcePartitions);
    }

    @Override
    public String toString() {
        return "Stage[" + name + ", sources=" + sources.keySet() + ", sinks=" + sinks.keySet()
                + (ticks == null ? "" : ", ticks=" + ticks.interval()) + "]";
    }

    /** Logic over one input: a message or tick in, a step out; stateless logic passes state through. */
    @FunctionalInterface
    interface Logic {
        Step<Object> apply(Object state, Object input);
    }

    /**
     * Stateless logic: emissions only. The host asks for them directly, so a handler's record costs
     * no {@link Step} to carry a state it does not have; {@link #apply} only keeps it a {@link Logic}.
     */
    @FunctionalInterface
    interface Handling extends Logic {
        /** The emissions of one input, as an immutable list without nulls (what a {@link Step} holds). */
        List<Emission> emissions(Object input);

        @Override
        default Step<Object> apply(Object state, Object input) {
            return new Step<>(state, emissions(input));
        }
    }

    /** One source topic and its logic. */
    record Source(Topic<?, ?> topic, Logic logic, boolean stateful) {
    }

    /** The tick declaration. */
    record Ticks(Duration interval, Logic logic, boolean stateful) {
    }

    /** A stateful stage's state codec and initial value. */
    record State(Codec<Object> codec, Supplier<Object> initial) {
    }

    /** Declares a stateless stage; {@link #state} turns it into a stateful one. Not thread-safe. */
    public static final class Builder {

        private final StageSpec spec;

        private Builder(StageSpec spec) {
            this.spec = spec;
        }

        /**
         * Consumes a topic with a handler.
         *
         * @param topic the source topic, never null
         * @param handler the handler, never null
         * @param <K> the key type
         * @param <V> the value type
         * @return this builder
         * @throws IllegalArgumentException if the topic is already a source of this stage
         */
        @SuppressWarnings("unchecked")
        public <K, V> Builder on(Topic<K, V> topic, Handler<K, V> handler) {
            Objects.requireNonNull(handler, "handler");
            spec.source(topic, (Handling) m -> List.copyOf(handler.handle((Message<K, V>) m)), false);
            return this;
        }

        /**
         * Declares topics the stage may emit to; an emission to any other topic fails the task.
         *
         * @param sinks the sink topics
         * @return this builder
         */
        public Builder into(Topic<?, ?>... sinks) {
            spec.sinks(sinks);
            return this;
        }

        /**
         * Declares a tick loop: every interval each task emits a tick to its own tick topic
         * ({@code <application-id>-<stage>-ticks}, which must exist with as many partitions as the
         * stage's widest source) and handles it when it is delivered.
         *
         * @param interval the cadence floor, positive
         * @param handler the tick handler, never null
         * @return this builder
         * @throws IllegalArgumentException if the interval is not positive
         * @throws IllegalStateException if ticks are already declared
         */
        public Builder ticks(Duration interval, TickHandler handler) {
            Objects.requireNonNull(handler, "handler");
            spec.ticks(interval, (Handling) t -> List.copyOf(handler.onTick((Tick) t)), false);
            return this;
        }

        /**
         * Sets how often clocks are truncated to the log starts of the channels they name.
         *
         * @param interval positive; default 10 minutes
         * @return this builder
         */
        public Builder truncationInterval(Duration interval) {
            spec.truncationInterval(interval);
            return this;
        }

        /**
         * Sets how long a record may stay held before a warning is logged; zero or negative
         * disables the warning.
         *
         * @param after default 30 seconds
         * @return this builder
         */
        public Builder holdWarningAfter(Duration after) {
            spec.holdWarningAfter(after);
            return this;
        }

        /**
         * Sets the most bytes one of this stage's stamps (a record's {@code vc} header value) may
         * take. Startup refuses an application in which a stamp of this stage could exceed it, naming
         * the topics; at run time a stamp above it is coarsened (sequence claims become whole-topic
         * claims, which may delay a delivery, never reorder one) and counted in the
         * {@code stamps-coarsened-total} metric. See docs/protocol.md §10.2.
         *
         * @param bytes between {@link Stage#MIN_MAX_STAMP_BYTES} and {@link Stage#MAX_MAX_STAMP_BYTES};
         *     default {@link Stage#DEFAULT_MAX_STAMP_BYTES}
         * @return this builder
         * @throws IllegalArgumentException for a bound outside that range
         */
        public Builder maxStampBytes(int bytes) {
            spec.maxStampBytes(bytes);
            return this;
        }

        /**
         * Makes the stage stateful, with per-key state for its folds.
         *
         * @param codec the state codec, never null
         * @param initial the state of a key that has none; may supply null
         * @param <S> the state type
         * @return the stateful builder, never null
         */
        @SuppressWarnings("unchecked")
        public <S> Stateful<S> state(Codec<S> codec, Supplier<S> initial) {
            Objects.requireNonNull(codec, "codec");
            Objects.requireNonNull(initial, "initial");
            spec.state = new State((Codec<Object>) codec, (Supplier<Object>) initial);
            return new Stateful<>(spec);
        }

        /**
         * Builds the stage.
         *
         * @return the stage, never null
         * @throws IllegalStateException if no source is declared
         */
        public Stage build() {
            return spec.build();
        }
    }

    /**
     * Declares a stateful stage: sources may have folds over per-key state. Not thread-safe.
     *
     * @param <S> the state type
     */
    public static final class Stateful<S> {

        private final StageSpec spec;

        private Stateful(StageSpec spec) {
            this.spec = spec;
        }

        /**
         * Consumes a topic with a fold over the message key's state.
         *
         * @param topic the source topic, never null
         * @param fold the fold, never null
         * @param <K> the key type
         * @param <V> the value type
         * @return this builder
         * @throws IllegalArgumentException if the topic is already a source of this stage
         */
        @SuppressWarnings("unchecked")
        public <K, V> Stateful<S> on(Topic<K, V> topic, Fold<S, K, V> fold) {
            Objects.requireNonNull(fold, "fold");
            spec.source(topic, (s, m) -> (Step<Object>) fold.apply((S) s, (Message<K, V>) m), true);
            return this;
        }

        /**
         * Consumes a topic with a stateless handler.
         *
         * @param topic the source topic, never null
         * @param handler the handler, never null
         * @param <K> the key type
         * @param <V> the value type
         * @return this builder
         * @throws IllegalArgumentException if the topic is already a source of this stage
         */
        @SuppressWarnings("unchecked")
        public <K, V> Stateful<S> on(Topic<K, V> topic, Handler<K, V> handler) {
            Objects.requireNonNull(handler, "handler");
            spec.source(topic, (Handling) m -> List.copyOf(handler.handle((Message<K, V>) m)), false);
            return this;
        }

        /**
         * Declares topics the stage may emit to.
         *
         * @param sinks the sink topics
         * @return this builder
         */
        public Stateful<S> into(Topic<?, ?>... sinks) {
            spec.sinks(sinks);
            return this;
        }

        /**
         * Declares a tick loop whose logic folds one state slot per task partition.
         *
         * @param interval the cadence floor, positive
         * @param fold the tick fold, never null
         * @return this builder
         * @throws IllegalArgumentException if the interval is not positive
         * @throws IllegalStateException if ticks are already declared
         */
        @SuppressWarnings("unchecked")
        public Stateful<S> ticks(Duration interval, TickFold<S> fold) {
            Objects.requireNonNull(fold, "fold");
            spec.ticks(interval, (s, t) -> (Step<Object>) fold.apply((S) s, (Tick) t), true);
            return this;
        }

        /**
         * Declares a stateless tick loop.
         *
         * @param interval the cadence floor, positive
         * @param handler the tick handler, never null
         * @return this builder
         * @throws IllegalArgumentException if the interval is not positive
         * @throws IllegalStateException if ticks are already declared
         */
        public Stateful<S> ticks(Duration interval, TickHandler handler) {
            Objects.requireNonNull(handler, "handler");
            spec.ticks(interval, (Handling) t -> List.copyOf(handler.onTick((Tick) t)), false);
            return this;
        }

        /**
         * Sets how often clocks are truncated.
         *
         * @param interval positive; default 10 minutes
         * @return this builder
         */
        public Stateful<S> truncationInterval(Duration interval) {
            spec.truncationInterval(interval);
            return this;
        }

        /**
         * Sets how long a record may stay held before a warning is logged.
         *
         * @param after default 30 seconds; zero or negative disables
         * @return this builder
         */
        public Stateful<S> holdWarningAfter(Duration after) {
            spec.holdWarningAfter(after);
            return this;
        }

        /**
         * Sets the most bytes one of this stage's stamps (a record's {@code vc} header value) may
         * take. Startup refuses an application in which a stamp of this stage could exceed it, naming
         * the topics; at run time a stamp above it is coarsened (sequence claims become whole-topic
         * claims, which may delay a delivery, never reorder one) and counted in the
         * {@code stamps-coarsened-total} metric. See docs/protocol.md §10.2.
         *
         * @param bytes between {@link Stage#MIN_MAX_STAMP_BYTES} and {@link Stage#MAX_MAX_STAMP_BYTES};
         *     default {@link Stage#DEFAULT_MAX_STAMP_BYTES}
         * @return this builder
         * @throws IllegalArgumentException for a bound outside that range
         */
        public Stateful<S> maxStampBytes(int bytes) {
            spec.maxStampBytes(bytes);
            return this;
        }

        /**
         * Builds the stage.
         *
         * @return the stage, never null
         * @throws IllegalStateException if no source is declared
         */
        public Stage build() {
            return spec.build();
        }
    }
}
