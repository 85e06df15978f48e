package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Reads of stateful stages' state over HTTP ({@code parsley.query.*}): the endpoint
 * {@code GET /parsley/state/{stage}/{key}}, how long a read waits for the state to reflect its
 * token, and the address other instances forward reads to. Its own class, rather than nested in
 * {@link ParsleyProperties}, only to keep that one short.
 */
public class QueryProperties {

    /**
     * Whether to serve reads of stateful stages' state at GET /parsley/state/{stage}/{key}. Needs a
     * servlet web application with Spring MVC.
     */
    private boolean enabled = false;

    /** Time a read waits for the state to reflect its token when the request gives no 'wait'. */
    private Duration wait = Duration.ofSeconds(5);

    /** Longest wait a request may ask for; a longer 'wait' is cut to it. */
    private Duration maxWait = Duration.ofSeconds(30);

    /**
     * Address other instances forward reads to, as host:port or http(s)://host:port, and the
     * application.server of the Kafka Streams client. Defaults to 'server.address' (else this
     * host's address) and 'server.port'; set it when 'server.port' is 0 or instances reach each
     * other by another address.
     */
    private @Nullable String advertisedUrl;

    /** Time a forwarded read may take beyond its wait, for connecting to the owner and its answer. */
    private Duration forwardTimeout = Duration.ofSeconds(2);

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Duration getWait() {
        return wait;
    }

    public void setWait(Duration wait) {
        this.wait = wait;
    }

    public Duration getMaxWait() {
        return maxWait;
    }

    public void setMaxWait(Duration maxWait) {
        this.maxWait = maxWait;
    }

    public @Nullable String getAdvertisedUrl() {
        return advertisedUrl;
    }

    public void setAdvertisedUrl(@Nullable String advertisedUrl) {
        this.advertisedUrl = advertisedUrl;
    }

    public Duration getForwardTimeout() {
        return forwardTimeout;
    }

    public void setForwardTimeout(Duration forwardTimeout) {
        this.forwardTimeout = forwardTimeout;
    }
}
