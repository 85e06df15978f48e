package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.Parsley;
import java.time.Duration;

/**
 * The budget for replacing a stream thread that died of a transient cluster error, such as a
 * transaction coordinator failing over ({@code parsley.transient-errors.*}; see
 * {@link Parsley#withTransientRetries}). Past it the application stops and its health turns DOWN.
 * Its own class, rather than nested in {@link ParsleyProperties}, only to keep that one short.
 */
public class TransientErrorsProperties {

    /** Stream-thread replacements allowed in any window; zero stops the application at the first such error. */
    private int retries = Parsley.DEFAULT_TRANSIENT_RETRIES;

    /** Time to wait before the first replacement of a window; doubled for each later one, up to 30 seconds. */
    private Duration backoff = Parsley.DEFAULT_TRANSIENT_BACKOFF;

    /** Period over which replacements count against the budget. */
    private Duration window = Parsley.DEFAULT_TRANSIENT_WINDOW;

    public int getRetries() {
        return retries;
    }

    public void setRetries(int retries) {
        this.retries = retries;
    }

    public Duration getBackoff() {
        return backoff;
    }

    public void setBackoff(Duration backoff) {
        this.backoff = backoff;
    }

    public Duration getWindow() {
        return window;
    }

    public void setWindow(Duration window) {
        this.window = window;
    }
}
