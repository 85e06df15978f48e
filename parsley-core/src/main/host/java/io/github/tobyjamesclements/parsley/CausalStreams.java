package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.LagInfo;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * A running (or startable) Parsley application: an allowlist over {@link KafkaStreams} with no
 * accessor to the instance. Kafka Streams' interactive queries, pause and resume, thread changes
 * and state clean-up are withheld: they can observe uncommitted state or freeze release across the
 * fleet. Stateful stages' state is read instead through {@link #read}, which returns committed
 * state only, and only once it reflects a given {@link CausalToken}.
 *
 * <p>Thread-safe as {@code KafkaStreams} is. A stream thread that dies of a transient cluster
 * error (a transaction coordinator failing over, a timeout; see {@link Parsley#withTransientRetries})
 * is replaced, within a budget. Past the budget, and for every other uncaught exception (or
 * {@link Error}), the client shuts down (fail closed) unless the uncaught-exception handler decides
 * otherwise; a handler that throws anything or returns null is treated as if there were none.
 *
 * <p>Closing leaves the consumer group, so the other instances of the application take over this
 * one's tasks at once instead of after the session timeout, on every Kafka Streams version from 4.1. A
 * static member (one configured with {@code group.instance.id}) stays in the group until its session
 * expires, as it asked to.
 */
public final class CausalStreams implements AutoCloseable {

    private final String applicationId;
    private final KafkaStreams streams;
    private final TopologyDescription topology;
    private final Admin admin;
    private final HoldBoard board;
    private final DeadLetterBoard deadLetters;
    private final ThreadReplacements replacements;
    private final StateReads reads;
    private final boolean staticMember;

    CausalStreams(String applicationId, KafkaStreams streams, Topology topology, Admin admin, HoldBoard board,
            DeadLetterBoard deadLetters, ThreadReplacements replacements, StateReads reads, boolean staticMember) {
        this.applicationId = applicationId;
        this.streams = streams;
        this.topology = topology.describe();
        this.admin = admin;
        this.board = board;
        this.deadLetters = deadLetters;
        this.replacements = replacements;
        this.reads = reads;
        this.staticMember = staticMember;
        streams.setUncaughtExceptionHandler(replacements.around(e -> StreamsUncaughtExceptionHandler
                .StreamThreadExceptionResponse.SHUTDOWN_CLIENT));
    }

    /**
     * The application id.
     *
     * @return the id, never null
     */
    public String applicationId() {
        return applicationId;
    }

    /**
     * Sets the state listener; see {@link KafkaStreams#setStateListener}.
     *
     * @param listener the listener, never null
     * @throws IllegalStateException if the application was started
     */
    public void setStateListener(KafkaStreams.StateListener listener) {
        streams.setStateListener(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Sets the uncaught-exception handler, which decides every failure but a transient cluster error
     * within the replacement budget ({@link Parsley#withTransientRetries}): those replace the thread
     * without asking it. It is totalised: a handler that throws anything, an {@link Error} included,
     * or returns null resolves to {@code SHUTDOWN_CLIENT}, as if there were no handler; the failure
     * is logged.
     *
     * @param handler the handler, never null
     * @throws IllegalStateException if the application was started
     */
    public void setUncaughtExceptionHandler(StreamsUncaughtExceptionHandler handler) {
        streams.setUncaughtExceptionHandler(replacements.around(ThreadReplacements.totalised(applicationId,
                Objects.requireNonNull(handler, "handler"))));
    }

    /**
     * Sets the global restore listener; see {@link KafkaStreams#setGlobalStateRestoreListener}.
     *
     * @param listener the listener, never null
     * @throws IllegalStateException if the application was started
     */
    public void setGlobalStateRestoreListener(StateRestoreListener listener) {
        streams.setGlobalStateRestoreListener(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Starts processing; see {@link KafkaStreams#start()}.
     *
     * @throws IllegalStateException if already started
     */
    public void start() {
        streams.start();
    }

    /**
     * The current state.
     *
     * @return the state, never null
     */
    public KafkaStreams.State state() {
        return streams.state();
    }

    /**
     * All client metrics, Parsley's {@code vc-metrics} group included, with the count of stream
     * threads replaced after a transient cluster error ({@code thread-replacements-total}).
     *
     * @return an unmodifiable map, never null
     */
    public Map<MetricName, ? extends Metric> metrics() {
        Map<MetricName, Metric> all = new LinkedHashMap<>(streams.metrics());
        all.putAll(replacements.metrics());
        return Collections.unmodifiableMap(all);
    }

    /**
     * Metadata of the local stream threads and their tasks.
     *
     * @return the metadata, never null
     */
    public Collection<ThreadMetadata> metadataForLocalThreads() {
        return streams.metadataForLocalThreads();
    }

    /**
     * Lag of every local store partition.
     *
     * @return store name to partition to lag, never null
     */
    public Map<String, Map<Integer, LagInfo>> allLocalStorePartitionLags() {
        return streams.allLocalStorePartitionLags();
    }

    /**
     * The topology this application runs.
     *
     * @return the description, never null
     */
    public TopologyDescription topology() {
        return topology;
    }

    /**
     * Every record this instance's tasks hold at the head of a queue, longest held first.
     * Payload-free. A task publishes its heads whenever one changes, so a hold of a few
     * milliseconds appears and ends as it happens; {@link HeldRecord#heldFor()} is computed at
     * this call; queue lengths and unmet claims are refreshed on each change of head and every
     * 500 ms while records are held.
     *
     * @return an immutable list, never null
     */
    public List<HeldRecord> explainHolds() {
        return board.snapshot();
    }

    /**
     * Per stage, in declaration order, how many records this instance's tasks wrote to the
     * dead-letter topic since it started, and the last error; empty without a dead-letter topic
     * ({@link Parsley#deadLetterTopic(String)}).
     *
     * @return an immutable list, never null
     */
    public List<DeadLetterReport> deadLetters() {
        return deadLetters == null ? List.of() : List.copyOf(deadLetters.snapshot());
    }

    /**
     * Reads the committed state of {@code key} in the stateful stage named {@code stage}, once that
     * state has delivered every record {@code token} claims on the channels the stage consumes
     * (protocol.md §17). Waits at most {@code wait} for it; a key whose partition another instance
     * owns is answered with that instance ({@link StateRead.Elsewhere}, from its
     * {@code application.server}) at once. The key is placed as the stage's first folded source
     * topic places records: encoded by that topic's key codec, partitioned by murmur2 of the bytes,
     * as Kafka's default partitioner and Parsley's own sends do.
     *
     * @param stage the stage's name, never null
     * @param key the key, of the stage's first folded source topic's key type; may be null
     * @param token what the answer must reflect, never null; {@link CausalToken#empty()} for any committed state
     * @param wait how long to wait for the owner's state to reflect the token, never null or negative
     * @param <S> the stage's state type
     * @return the answer, never null
     * @throws IllegalArgumentException if there is no such stage, it keeps no state, or the wait is negative
     * @throws ClassCastException if the key is not of the key codec's type
     */
    public <S> StateRead<S> read(String stage, Object key, CausalToken token, Duration wait) {
        Objects.requireNonNull(stage, "stage");
        Objects.requireNonNull(token, "token");
        if (wait.isNegative()) {
            throw new IllegalArgumentException("Negative wait for a read; wait=" + wait);
        }
        return reads.read(stage, key, token, wait);
    }

    /**
     * Reads the committed state of {@code key} in {@code stage} without a token or a wait: whatever
     * the owner's last commit holds. See {@link #read(String, Object, CausalToken, Duration)}.
     *
     * @param stage the stage's name, never null
     * @param key the key, may be null
     * @param <S> the stage's state type
     * @return the answer, never null
     */
    public <S> StateRead<S> read(String stage, Object key) {
        return read(stage, key, CausalToken.empty(), Duration.ZERO);
    }

    /**
     * Closes the application and its admin client, waiting as long as it takes. The application
     * commits its current transaction and leaves the consumer group (see the class comment).
     */
    @Override
    public void close() {
        try {
            GroupLeave.close(streams, Duration.ofMillis(Long.MAX_VALUE), staticMember);
        } finally {
            admin.close();
        }
    }

    /**
     * Closes the application, waiting at most {@code timeout}. The application commits its current
     * transaction and leaves the consumer group (see the class comment).
     *
     * @param timeout the longest wait, never null
     * @return whether all threads stopped in time
     */
    public boolean close(Duration timeout) {
        try {
            return GroupLeave.close(streams, timeout, staticMember);
        } finally {
            admin.close(timeout);
        }
    }
}
