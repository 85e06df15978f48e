package io.github.tobyjamesclements.parsley.spring.actuate;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.DeadLetterReport;
import io.github.tobyjamesclements.parsley.HeldRecord;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import io.github.tobyjamesclements.parsley.spring.lifecycle.BrokerConnectivity;
import io.github.tobyjamesclements.parsley.spring.lifecycle.ParsleyStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of a Parsley application, from local state only (no broker calls per request).
 *
 * <p>UP while the Kafka Streams client is running or rebalancing; DOWN in error, after it stopped,
 * or (with {@code parsley.health.down-on-stall=true}) while a record has been held longer than
 * {@code parsley.health.hold-age-threshold}; UNKNOWN before it started. Details: state, application
 * id, enforced guarantee, stages, local tasks, holds with the oldest hold's age and diagnosis, and
 * {@code stalled=true} once a hold is older than the threshold; with a dead-letter topic, per
 * stage the records this instance wrote there and the last error (exception, message, topic,
 * partition, offset). Dead letters do not change the status: the stage handled them. No payloads,
 * no secrets.
 *
 * <p>With a {@link BrokerConnectivity} check ({@code parsley.health.broker-timeout}), DOWN while the
 * Kafka cluster is lost, whatever the client's state (which stays {@code RUNNING} through an
 * outage), with a {@code broker} detail: whether it is reachable, how long it has gone unanswered,
 * the last error and the timeout. DOWN rather than OUT_OF_SERVICE: Spring Boot's indicators report
 * an unreachable dependency (a database, Redis) as DOWN, and OUT_OF_SERVICE means taken out of
 * service on purpose. The answer is the check's last result, never a call of its own.
 */
public class ParsleyHealthIndicator extends AbstractHealthIndicator {

    private final CausalStreams streams;
    private final Parsley parsley;
    private final ParsleyStatus status;
    private final Duration holdAgeThreshold;
    private final boolean downOnStall;
    private final @Nullable BrokerConnectivity broker;

    /**
     * Creates the indicator without a broker check.
     *
     * @param streams the application
     * @param parsley its composition
     * @param status what the starter observed
     * @param holdAgeThreshold the hold age that counts as a stall
     * @param downOnStall whether a stall turns the status DOWN
     */
    public ParsleyHealthIndicator(CausalStreams streams, Parsley parsley, ParsleyStatus status,
            Duration holdAgeThreshold, boolean downOnStall) {
        this(streams, parsley, status, holdAgeThreshold, downOnStall, null);
    }

    /**
     * Creates the indicator.
     *
     * @param streams the application
     * @param parsley its composition
     * @param status what the starter observed
     * @param holdAgeThreshold the hold age that counts as a stall
     * @param downOnStall whether a stall turns the status DOWN
     * @param broker the broker check whose loss turns the status DOWN, or null for none
     */
    public ParsleyHealthIndicator(CausalStreams streams, Parsley parsley, ParsleyStatus status,
            Duration holdAgeThreshold, boolean downOnStall, @Nullable BrokerConnectivity broker) {
        super("Parsley health check failed");
        this.broker = broker;
        this.streams = Objects.requireNonNull(streams, "'streams' must not be null");
        this.parsley = Objects.requireNonNull(parsley, "'parsley' must not be null");
        this.status = Objects.requireNonNull(status, "'status' must not be null");
        this.holdAgeThreshold = Objects.requireNonNull(holdAgeThreshold, "'holdAgeThreshold' must not be null");
        this.downOnStall = downOnStall;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        KafkaStreams.State state = streams.state();
        List<HeldRecord> holds = streams.explainHolds();
        boolean stalled = !holds.isEmpty() && holds.get(0).heldFor().compareTo(holdAgeThreshold) > 0;
        BrokerConnectivity.Report reach = broker == null ? null : broker.report();
        applyStatus(builder, state, stalled);
        if (reach != null && reach.lost()) {
            builder.down();
        }
        builder.withDetail("state", state.name());
        builder.withDetail("applicationId", parsley.applicationId());
        builder.withDetail("guarantee", "exactly_once_v2");
        builder.withDetail("stages", parsley.stages().stream().map(Stage::name).toList());
        builder.withDetail("tasks", tasks());
        builder.withDetail("holds", holdDetails(holds, stalled));
        parsley.deadLetterTopic().ifPresent(topic -> builder.withDetail("deadLetters", deadLetters(topic)));
        if (reach != null) {
            builder.withDetail("broker", brokerDetails(reach));
        }
        Throwable failure = status.lastUncaught();
        if (failure != null) {
            builder.withDetail("lastError", describe(failure));
        }
    }

    private void applyStatus(Health.Builder builder, KafkaStreams.State state, boolean stalled) {
        switch (state) {
            case RUNNING, REBALANCING -> {
                if (stalled && downOnStall) {
                    builder.down();
                } else {
                    builder.up();
                }
            }
            case CREATED -> builder.unknown();
            default -> builder.down();
        }
    }

    /** The hold count, and the age, record and diagnosis of the oldest hold (explainHolds lists it first). */
    private Map<String, Object> holdDetails(List<HeldRecord> holds, boolean stalled) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("count", holds.size());
        if (!holds.isEmpty()) {
            HeldRecord oldest = holds.get(0);
            out.put("oldestAgeMs", oldest.heldFor().toMillis());
            out.put("oldest", oldest.stage() + " " + oldest.topic() + "-" + oldest.partition() + "@" + oldest.offset());
            out.put("diagnosis", oldest.diagnosis().code());
        }
        out.put("thresholdMs", holdAgeThreshold.toMillis());
        out.put("stalled", stalled);
        return out;
    }

    /** Reachable or not, since when, why, and the timeout: what an operator needs to tell an outage from a blip. */
    private static Map<String, Object> brokerDetails(BrokerConnectivity.Report reach) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("reachable", !reach.lost());
        out.put("unansweredForMs", reach.unansweredFor().toMillis());
        if (reach.lastError() != null) {
            out.put("lastError", reach.lastError());
        }
        out.put("timeoutMs", reach.timeout().toMillis());
        return out;
    }

    /** The failure and, when it wraps one, its root cause: the wrapper alone rarely says what broke. */
    private static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String error = failure.getClass().getName() + ": " + failure.getMessage();
        return root == failure ? error : error + "; caused by " + root.getClass().getName() + ": " + root.getMessage();
    }

    private Map<String, Object> deadLetters(String topic) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("topic", topic);
        Map<String, Object> stages = new LinkedHashMap<>();
        for (DeadLetterReport r : streams.deadLetters()) {
            Map<String, Object> stage = new LinkedHashMap<>();
            stage.put("count", r.count());
            if (r.last() != null) {
                stage.put("lastError", lastError(r.last()));
            }
            stages.put(r.stage(), stage);
        }
        out.put("stages", stages);
        return out;
    }

    /** The error as fields, for the health details and the endpoint alike. */
    static Map<String, Object> lastError(DeadLetterReport.LastError e) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("exception", e.exception());
        out.put("message", e.message());
        out.put("topic", e.topic());
        out.put("partition", e.partition());
        out.put("offset", e.offset());
        out.put("at", e.at().toString());
        return out;
    }

    private List<String> tasks() {
        List<String> out = new ArrayList<>();
        for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
            for (TaskMetadata task : thread.activeTasks()) {
                out.add(task.taskId().toString());
            }
        }
        out.sort(null);
        return out;
    }
}
