package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import java.time.Instant;
import org.apache.kafka.streams.KafkaStreams;
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

    void uncaught(Throwable failure) {
        this.lastUncaught = failure;
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
