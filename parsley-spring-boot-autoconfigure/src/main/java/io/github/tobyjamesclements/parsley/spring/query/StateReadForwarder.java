package io.github.tobyjamesclements.parsley.spring.query;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.function.ServerResponse;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * Forwards a read to the instance that owns its key, over HTTP with the JDK's client, and relays
 * the owner's answer. The forwarded request carries the token, the wait that is left, the client's
 * {@code Authorization} header and the
 * {@value StateReadController#FORWARDED_HEADER} header, so the owner never forwards it again.
 * Thread-safe.
 */
public final class StateReadForwarder {

    /** The owner's headers a forwarded answer keeps. */
    private static final List<String> RELAYED = List.of(HttpHeaders.CONTENT_TYPE,
            StateReadController.TOKEN_HEADER, HttpHeaders.RETRY_AFTER);

    private final HttpClient http;
    private final String scheme;
    private final String self;
    private final Duration timeout;

    /**
     * Creates the forwarder.
     *
     * @param scheme {@code http} or {@code https}, the scheme of every instance's endpoint
     * @param self this instance's address as others see it ({@code host:port}), may be null when unknown
     * @param timeout the time a forwarded read may take beyond its wait, for connecting and the answer
     */
    public StateReadForwarder(String scheme, @Nullable String self, Duration timeout) {
        this.scheme = Objects.requireNonNull(scheme, "scheme");
        this.self = self == null ? "unknown" : self;
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** The value of {@value StateReadController#FORWARDED_HEADER} on this instance's forwards. */
    String self() {
        return self;
    }

    /**
     * Asks the owner and relays its answer, or answers 503 when it cannot be reached in time.
     *
     * @param read the request, whose token and {@code Authorization} header are passed on as they are
     * @param owner the instance that owns the key
     * @param wait the wait left to the read
     */
    ServerResponse forward(StateReadController.Read read, Owner owner, Duration wait) {
        String stage = read.stage();
        String key = read.key();
        URI uri = UriComponentsBuilder.newInstance().scheme(scheme).host(owner.host()).port(owner.port())
                .path(read.basePath()).path(StateReadController.PATH).queryParam("wait", wait.toMillis() + "ms")
                .encode().buildAndExpand(stage, key).toUri();
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).GET().timeout(wait.plus(timeout))
                .header(StateReadController.FORWARDED_HEADER, self)
                .header(HttpHeaders.ACCEPT, "application/json, application/problem+json");
        if (read.token() != null) {
            request.header(StateReadController.TOKEN_HEADER, read.token());
        }
        if (read.authorization() != null) {
            request.header(HttpHeaders.AUTHORIZATION, read.authorization());
        }
        HttpResponse<byte[]> answer;
        try {
            answer = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            return StateProblems.noOwner(stage, key, "The owner of the key, " + owner + ", did not answer the"
                    + " forwarded read within " + wait.plus(timeout).toMillis() + " ms (" + e
                    + "); it may be stopping, and its partitions are then moving: retry with the same token");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return StateProblems.noOwner(stage, key, "Interrupted while forwarding the read to " + owner);
        }
        ServerResponse.BodyBuilder relayed = ServerResponse.status(answer.statusCode())
                .header(StateReadController.FORWARDED_TO_HEADER, owner.toString());
        for (String name : RELAYED) {
            answer.headers().firstValue(name).ifPresent(value -> relayed.header(name, value));
        }
        return relayed.body(answer.body());
    }

    /** The instance that owns a key: its {@code application.server}. */
    record Owner(String host, int port) {

        @Override
        public String toString() {
            return host + ":" + port;
        }
    }
}
