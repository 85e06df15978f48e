package io.github.tobyjamesclements.parsley.spring.query;

import io.github.tobyjamesclements.parsley.CausalToken;
import io.github.tobyjamesclements.parsley.HeldRecord;
import io.github.tobyjamesclements.parsley.StateRead;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The answers of the reads endpoint that carry no value, as RFC 9457 problem details: a title, a
 * detail that says what is wrong and what to do, and the facts as members ({@code stage},
 * {@code key}, {@code token}, {@code reason}, {@code unmet}).
 */
final class StateProblems {

    /** Seconds a client should wait before it retries a read that got no answer. */
    static final String RETRY_AFTER_SECONDS = "1";

    private StateProblems() {
    }

    static ServerResponse absent(String stage, String key, CausalToken token) {
        ProblemDetail p = problem(HttpStatus.NOT_FOUND, "No state", "Stage '" + stage + "' has no state for key '"
                + key + "': no record with this key was delivered to it, or its fold removed the state");
        p.setProperty("stage", stage);
        p.setProperty("key", key);
        p.setProperty("token", token.toString());
        return ServerResponse.status(HttpStatus.NOT_FOUND).header(StateReadController.TOKEN_HEADER, token.toString())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON).body(p);
    }

    static ServerResponse unknownStage(String stage, List<String> stages) {
        ProblemDetail p = problem(HttpStatus.NOT_FOUND, "Unknown stage", "No stage is named '" + stage
                + "'; the stages are " + stages);
        p.setProperty("stage", stage);
        return respond(p);
    }

    static ServerResponse stateless(String stage, List<String> stateful) {
        ProblemDetail p = problem(HttpStatus.NOT_FOUND, "Stage keeps no state", "Stage '" + stage
                + "' keeps no state: only a stage with a fold (@CausalFold) has state to read; the stateful stages"
                + " are " + stateful);
        p.setProperty("stage", stage);
        return respond(p);
    }

    static ServerResponse badToken(String why) {
        return respond(problem(HttpStatus.BAD_REQUEST, "Invalid token", "The "
                + StateReadController.TOKEN_HEADER + " header is not a token this application issued: " + why
                + "; send the token of a read's answer or of a send as it was given, or no header"));
    }

    static ServerResponse badWait(String wait, String why) {
        return respond(problem(HttpStatus.BAD_REQUEST, "Invalid wait", "Parameter 'wait'"
                + " is '" + wait + "', " + why + "; give a duration such as 200ms, 5s or PT5S"));
    }

    static ServerResponse badKey(String stage, String key, String why) {
        ProblemDetail p = problem(HttpStatus.BAD_REQUEST, "Invalid key", why);
        p.setProperty("stage", stage);
        p.setProperty("key", key);
        return respond(p);
    }

    static ServerResponse notReady(String stage, String key, StateRead.NotReady<?> r) {
        boolean behind = r.reason() == StateRead.Reason.BEHIND;
        ProblemDetail p = problem(HttpStatus.SERVICE_UNAVAILABLE, behind ? "State behind the token"
                : "No owner", r.detail());
        p.setProperty("stage", stage);
        p.setProperty("key", key);
        p.setProperty("reason", r.reason().name());
        if (behind) {
            p.setProperty("unmet", r.unmet().stream().map(StateProblems::claim).toList());
        }
        return unavailable(p);
    }

    /** No instance can answer now: the owner moved, or could not be reached; worth a retry. */
    static ServerResponse noOwner(String stage, String key, String detail) {
        ProblemDetail p = problem(HttpStatus.SERVICE_UNAVAILABLE, "No owner", detail);
        p.setProperty("stage", stage);
        p.setProperty("key", key);
        p.setProperty("reason", StateRead.Reason.NO_OWNER.name());
        return unavailable(p);
    }

    private static ServerResponse unavailable(ProblemDetail p) {
        return ServerResponse.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(p);
    }

    private static ServerResponse respond(ProblemDetail p) {
        return ServerResponse.status(p.getStatus()).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(p);
    }

    private static Map<String, Object> claim(HeldRecord.UnmetClaim c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("topic", c.topic());
        m.put("partition", c.partition());
        if (c.sender() != null) {
            m.put("sender", c.sender());
        }
        m.put("claimed", c.claimed());
        m.put("delivered", c.local());
        m.put("diagnosis", c.diagnosis().code());
        return m;
    }

    private static ProblemDetail problem(HttpStatus status, String title, String detail) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setTitle(title);
        return p;
    }
}
