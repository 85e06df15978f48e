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
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;

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
 */
@RestController
public class StateReadController {

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
     * Reads a key's state.
     *
     * @param stage the stage's name
     * @param key the key's text
     * @param token the token the state must reflect, may be null for none
     * @param forwardedBy the instance that forwarded this read, null for a client's read
     * @param wait how long to wait for the state to reflect the token, null for the default
     * @param authorization the client's credentials, passed on to the owner when the read is forwarded
     * @param here the request's address up to its context path
     * @return the answer
     */
    @GetMapping(PATH)
    public ResponseEntity<?> read(@PathVariable("stage") String stage, @PathVariable("key") String key,
            @RequestHeader(name = TOKEN_HEADER, required = false) @Nullable String token,
            @RequestHeader(name = FORWARDED_HEADER, required = false) @Nullable String forwardedBy,
            @RequestParam(name = "wait", required = false) @Nullable String wait,
            @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) @Nullable String authorization,
            UriComponentsBuilder here) {
        long start = System.nanoTime();
        if (!keys.has(stage)) {
            return StateProblems.unknownStage(stage, keys.stages());
        }
        if (keys.keyType(stage) == null) {
            return StateProblems.stateless(stage, keys.statefulStages());
        }
        CausalToken claims;
        try {
            claims = token == null || token.isBlank() ? CausalToken.empty() : CausalToken.parse(token.trim());
        } catch (IllegalArgumentException e) {
            return StateProblems.badToken(token, e.getMessage());
        }
        Duration waitFor;
        try {
            waitFor = waitOf(wait);
        } catch (IllegalArgumentException e) {
            return StateProblems.badWait(String.valueOf(wait), e.getMessage());
        }
        Object typed;
        try {
            typed = keys.key(stage, key);
        } catch (IllegalArgumentException e) {
            return StateProblems.badKey(stage, key, e.getMessage());
        }
        StateRead<Object> r = streams.read(stage, typed, claims, waitFor);
        if (r instanceof StateRead.Elsewhere<Object> elsewhere) {
            Duration left = waitFor.minusNanos(System.nanoTime() - start);
            return elsewhere(elsewhere, stage, key, token, forwardedBy, left.isNegative() ? Duration.ZERO : left,
                    authorization, here);
        }
        return answer(r, stage, key);
    }

    /** The answer of a read this instance could give. */
    private static ResponseEntity<?> answer(StateRead<Object> r, String stage, String key) {
        if (r instanceof StateRead.Found<Object> found) {
            return ResponseEntity.ok().header(TOKEN_HEADER, found.token().toString())
                    .contentType(MediaType.APPLICATION_JSON)
                    .body(new StateAnswer(stage, key, found.value(), found.token().toString()));
        }
        if (r instanceof StateRead.Absent<Object> absent) {
            return StateProblems.absent(stage, key, absent.token());
        }
        return StateProblems.notReady(stage, key, (StateRead.NotReady<Object>) r);
    }

    /** Forwards a read of a key another instance owns, unless it was forwarded here already. */
    private ResponseEntity<?> elsewhere(StateRead.Elsewhere<Object> owner, String stage, String key,
            @Nullable String token, @Nullable String forwardedBy, Duration left, @Nullable String authorization,
            UriComponentsBuilder here) {
        if (forwardedBy != null) {
            return StateProblems.noOwner(stage, key, "This instance (" + forwarder.self() + ") got the read"
                    + " forwarded by " + forwardedBy + " as the owner of the key, but the owner is "
                    + owner.host() + ":" + owner.port() + " now: the key's partition is moving"
                    + " (a rebalance); retry with the same token");
        }
        return forwarder.forward(here, new StateReadForwarder.Owner(owner.host(), owner.port()), stage, key, token,
                left, authorization);
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
