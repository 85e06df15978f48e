package io.github.tobyjamesclements.parsley.spring.query;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.CausalToken;
import io.github.tobyjamesclements.parsley.StateRead;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * {@code GET /parsley/state/{stage}/{key}}: the committed state of a key in a stateful stage, once
 * it reflects the request's {@value #TOKEN_HEADER}, from whichever instance owns the key. Answers
 * 200 with {@code {"stage","key","value","token"}}; 404 for a key without state (with the token),
 * an unknown stage or a stage that keeps no state; 400 for a token, wait or key that is not valid;
 * 503 with {@code Retry-After} when the state did not reflect the token within the wait or no
 * instance owns the key now. Every answer but 200 is an RFC 9457 problem detail. A read of a key
 * that another instance owns is forwarded to it once, with the client's {@code Authorization}
 * header, so the owner authorizes the same caller. A read blocks its request thread for at most
 * its wait.
 *
 * <p>A Spring MVC functional endpoint ({@link #routes()}), not an annotated {@code @Controller}: no
 * component scan of an application can pick it up unless reads are enabled.
 */
public final class StateReadController {

    /** The request and response header that carries a token. */
    public static final String TOKEN_HEADER = "Parsley-Token";

    /** The request header that marks a read one instance forwarded to another; its value is the sender. */
    public static final String FORWARDED_HEADER = "Parsley-Forwarded";

    /** The response header of a forwarded read that names the instance that answered it. */
    public static final String FORWARDED_TO_HEADER = "Parsley-Forwarded-To";

    /** The endpoint's path. */
    public static final String PATH = "/parsley/state/{stage}/{key}";

    private final CausalStreams streams;
    private final StateKeys keys;
    private final Duration defaultWait;
    private final Duration maxWait;
    private final StateReadForwarder forwarder;

    /**
     * Creates the controller.
     *
     * @param streams the application whose state is read, never null
     * @param keys its stages and their key types, never null
     * @param defaultWait the wait of a request that names none, never null
     * @param maxWait the longest wait; a request asking for more gets this, never null
     * @param forwarder forwards reads of keys other instances own, never null
     */
    public StateReadController(CausalStreams streams, StateKeys keys, Duration defaultWait, Duration maxWait,
            StateReadForwarder forwarder) {
        this.streams = Objects.requireNonNull(streams, "streams");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.defaultWait = Objects.requireNonNull(defaultWait, "defaultWait");
        this.maxWait = Objects.requireNonNull(maxWait, "maxWait");
        this.forwarder = Objects.requireNonNull(forwarder, "forwarder");
    }

    /**
     * The endpoint's route, to declare as a bean.
     *
     * @return {@code GET} {@value #PATH} to {@link #read(ServerRequest)}, never null
     */
    public RouterFunction<ServerResponse> routes() {
        return RouterFunctions.route().GET(PATH, this::read).build();
    }

    /**
     * Reads a key's state.
     *
     * @param request the request: path variables {@code stage} and {@code key}, the optional
     *     {@value #TOKEN_HEADER} and {@value #FORWARDED_HEADER} headers and {@code wait} parameter
     * @return the answer, never null
     */
    public ServerResponse read(ServerRequest request) {
        long start = System.nanoTime();
        Read read = new Read(request);
        if (!keys.has(read.stage())) {
            return StateProblems.unknownStage(read.stage(), keys.stages());
        }
        if (keys.keyType(read.stage()) == null) {
            return StateProblems.stateless(read.stage(), keys.statefulStages());
        }
        CausalToken claims;
        try {
            claims = read.token() == null ? CausalToken.empty() : CausalToken.parse(read.token());
        } catch (IllegalArgumentException e) {
            return StateProblems.badToken(e.getMessage());
        }
        String wait = request.param("wait").orElse(null);
        Duration waitFor;
        try {
            waitFor = waitOf(wait);
        } catch (IllegalArgumentException e) {
            return StateProblems.badWait(String.valueOf(wait), e.getMessage());
        }
        Object typed;
        try {
            typed = keys.key(read.stage(), read.key());
        } catch (IllegalArgumentException e) {
            return StateProblems.badKey(read.stage(), read.key(), e.getMessage());
        }
        StateRead<Object> r = streams.read(read.stage(), typed, claims, waitFor);
        if (r instanceof StateRead.Elsewhere<Object> elsewhere) {
            Duration left = waitFor.minusNanos(System.nanoTime() - start);
            return elsewhere(read, elsewhere, left.isNegative() ? Duration.ZERO : left);
        }
        return answer(r, read.stage(), read.key());
    }

    /** The answer of a read this instance could give. */
    private static ServerResponse answer(StateRead<Object> r, String stage, String key) {
        if (r instanceof StateRead.Found<Object> found) {
            return ServerResponse.ok().header(TOKEN_HEADER, found.token().toString())
                    .contentType(MediaType.APPLICATION_JSON)
                    .body(new StateAnswer(stage, key, found.value(), found.token().toString()));
        }
        if (r instanceof StateRead.Absent<Object> absent) {
            return StateProblems.absent(stage, key, absent.token());
        }
        return StateProblems.notReady(stage, key, (StateRead.NotReady<Object>) r);
    }

    /** Forwards a read of a key another instance owns, unless it was forwarded here already. */
    private ServerResponse elsewhere(Read read, StateRead.Elsewhere<Object> owner, Duration left) {
        if (read.forwardedBy() != null) {
            return StateProblems.noOwner(read.stage(), read.key(), "This instance (" + forwarder.self() + ") got"
                    + " the read forwarded by " + read.forwardedBy() + " as the owner of the key, but the owner is "
                    + owner.host() + ":" + owner.port() + " now: the key's partition is moving (a rebalance);"
                    + " retry with the same token");
        }
        return forwarder.forward(read, new StateReadForwarder.Owner(owner.host(), owner.port()), left);
    }

    private Duration waitOf(@Nullable String wait) {
        if (wait == null || wait.isBlank()) {
            return defaultWait;
        }
        Duration d;
        try {
            d = DurationStyle.detectAndParse(wait.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("which is not a duration", e);
        }
        if (d.isNegative()) {
            throw new IllegalArgumentException("which is negative");
        }
        return d.compareTo(maxWait) > 0 ? maxWait : d;
    }

    /**
     * What a read request says.
     *
     * @param stage the stage's name
     * @param key the key's text
     * @param token the token's text, null for none
     * @param forwardedBy the instance that forwarded the read, null for a client's read
     * @param authorization the client's credentials, null for none
     * @param basePath the path the endpoint's path is relative to: the context path and servlet mapping
     */
    record Read(String stage, String key, @Nullable String token, @Nullable String forwardedBy,
            @Nullable String authorization, String basePath) {

        Read(ServerRequest request) {
            this(request.pathVariable("stage"), request.pathVariable("key"),
                    blankToNull(request.headers().firstHeader(TOKEN_HEADER)),
                    request.headers().firstHeader(FORWARDED_HEADER),
                    request.headers().firstHeader(HttpHeaders.AUTHORIZATION),
                    request.requestPath().contextPath().value());
        }

        private static @Nullable String blankToNull(@Nullable String text) {
            return text == null || text.isBlank() ? null : text.trim();
        }
    }

    /**
     * The body of a 200 answer.
     *
     * @param stage the stage read
     * @param key the key, as the request gave it
     * @param value the key's committed state, serialized with the application's JSON mapper
     * @param token what the value reflects: send it with the next read to read nothing older
     */
    public record StateAnswer(String stage, String key, Object value, String token) {
    }
}
