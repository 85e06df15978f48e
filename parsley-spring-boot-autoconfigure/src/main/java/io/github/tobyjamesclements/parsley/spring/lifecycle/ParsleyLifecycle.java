package io.github.tobyjamesclements.parsley.spring.lifecycle;

import io.github.tobyjamesclements.parsley.CausalStreams;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the {@link CausalStreams} once the context is refreshed and closes it on shutdown, in a
 * phase just above the web server's graceful shutdown, so the application stops consuming before
 * the server drains. Closing commits the current transaction and leaves the consumer group, so
 * the application's other instances take over its tasks at once rather than after the session
 * timeout (a static member, with {@code group.instance.id}, stays until its session expires). Held
 * records stay in the state store and are delivered, in order, after a restart. The
 * auto-configured lifecycle honours {@code spring.kafka.streams.auto-startup}.
 */
public final class ParsleyLifecycle implements SmartLifecycle, DisposableBean {

    /** One above {@code WebServerApplicationContext.GRACEFUL_SHUTDOWN_PHASE}, which is {@code DEFAULT_PHASE - 1024}. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1023;

    private static final Logger log = LoggerFactory.getLogger(ParsleyLifecycle.class);

    private final CausalStreams streams;
    private final Duration closeTimeout;
    private final boolean autoStartup;
    private volatile boolean running;
    private volatile boolean closed;

    /**
     * Creates the lifecycle.
     *
     * @param streams the application
     * @param closeTimeout the longest wait for a close
     */
    public ParsleyLifecycle(CausalStreams streams, Duration closeTimeout) {
        this(streams, closeTimeout, true);
    }

    /**
     * Creates the lifecycle.
     *
     * @param streams the application
     * @param closeTimeout the longest wait for a close
     * @param autoStartup whether to start the application when the context is refreshed
     */
    public ParsleyLifecycle(CausalStreams streams, Duration closeTimeout, boolean autoStartup) {
        this.streams = streams;
        this.closeTimeout = closeTimeout;
        this.autoStartup = autoStartup;
    }

    @Override
    public synchronized void start() {
        if (!running && !closed) {
            streams.start();
            running = true;
        }
    }

    @Override
    public synchronized void stop() {
        if (running) {
            running = false;
            close();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public boolean isAutoStartup() {
        return autoStartup;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    @Override
    public void destroy() {
        close();
    }

    private synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!streams.close(closeTimeout)) {
            log.warn("Parsley application {} did not close within {}", streams.applicationId(), closeTimeout);
        }
    }
}
