package io.github.tobyjamesclements.parsley.spring.lifecycle;

import java.time.Instant;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.jspecify.annotations.Nullable;

/**
 * What the starter observed of the running application: its last state transition and the last
 * uncaught exception. Read by the health contributor without touching the broker. Thread-safe.
 */
public final class ParsleyStatus implements KafkaStreams.StateListener {

    private volatile KafkaStreams.@Nullable State state;
    private volatile @Nullable Instant since;
    private volatile @Nullable Throwable lastUncaught;

    @Override
    public void onChange(KafkaStreams.State newState, KafkaStreams.State oldState) {
        this.state = newState;
        this.since = Instant.now();
    }

    /**
     * An uncaught-exception handler that records each exception here (see {@link #lastUncaught()})
     * and then answers as {@code delegate} does, or with {@code SHUTDOWN_CLIENT} (fail closed)
     * without one. A transient cluster error within the replacement budget never reaches it: the
     * application replaces the thread itself ({@code Parsley.withTransientRetries}).
     *
     * @param delegate the user's handler, or null for none
     * @return the recording handler, never null
     */
    public StreamsUncaughtExceptionHandler recordingUncaught(@Nullable StreamsUncaughtExceptionHandler delegate) {
        return e -> {
            lastUncaught = e;
            return delegate == null ? StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT
                    : delegate.handle(e);
        };
    }

    /**
     * The last state the application reported.
     *
     * @return the state, or null before the first transition
     */
    public KafkaStreams.@Nullable State state() {
        return state;
    }

    /**
     * When the last transition happened.
     *
     * @return the instant, or null before the first transition
     */
    public @Nullable Instant since() {
        return since;
    }

    /**
     * The last exception that reached the uncaught-exception handler.
     *
     * @return the exception, or null
     */
    public @Nullable Throwable lastUncaught() {
        return lastUncaught;
    }
}
