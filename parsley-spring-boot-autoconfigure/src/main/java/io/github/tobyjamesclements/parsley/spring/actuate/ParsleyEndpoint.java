package io.github.tobyjamesclements.parsley.spring.actuate;

import io.github.tobyjamesclements.parsley.CausalStreams;
import io.github.tobyjamesclements.parsley.DeadLetterReport;
import io.github.tobyjamesclements.parsley.HeldRecord;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code parsley} Actuator endpoint: the stages (sources with handler or fold, sinks, ticks),
 * the topology, every held head with its unmet claims and, with a dead-letter topic, per stage the
 * records this instance wrote there and the last error. Payload-free (an error message is the
 * failing code's own).
 */
@Endpoint(id = "parsley")
public class ParsleyEndpoint {

    private final CausalStreams streams;
    private final Parsley parsley;

    /**
     * Creates the endpoint.
     *
     * @param streams the application
     * @param parsley its composition
     */
    public ParsleyEndpoint(CausalStreams streams, Parsley parsley) {
        this.streams = streams;
        this.parsley = parsley;
    }

    /**
     * Describes the application.
     *
     * @return the description
     */
    @ReadOperation
    public ParsleyDescriptor parsley() {
        List<StageDescriptor> stages = parsley.stages().stream().map(StageDescriptor::new).toList();
        List<HoldDescriptor> holds = streams.explainHolds().stream().map(HoldDescriptor::new).toList();
        List<DeadLetterDescriptor> deadLetters = streams.deadLetters().stream().map(DeadLetterDescriptor::new)
                .toList();
        return new ParsleyDescriptor(parsley.applicationId(), streams.state().name(), stages,
                streams.topology().toString(), holds, parsley.deadLetterTopic().orElse(null), deadLetters);
    }

    /** The whole application. */
    public static final class ParsleyDescriptor implements OperationResponseBody {

        private final String applicationId;
        private final String state;
        private final List<StageDescriptor> stages;
        private final String topology;
        private final List<HoldDescriptor> holds;
        private final @Nullable String deadLetterTopic;
        private final List<DeadLetterDescriptor> deadLetters;

        ParsleyDescriptor(String applicationId, String state, List<StageDescriptor> stages, String topology,
                List<HoldDescriptor> holds, @Nullable String deadLetterTopic, List<DeadLetterDescriptor> deadLetters) {
            this.applicationId = applicationId;
            this.state = state;
            this.stages = stages;
            this.topology = topology;
            this.holds = holds;
            this.deadLetterTopic = deadLetterTopic;
            this.deadLetters = deadLetters;
        }

        public String getApplicationId() {
            return applicationId;
        }

        public String getState() {
            return state;
        }

        public List<StageDescriptor> getStages() {
            return stages;
        }

        public String getTopology() {
            return topology;
        }

        public List<HoldDescriptor> getHolds() {
            return holds;
        }

        public @Nullable String getDeadLetterTopic() {
            return deadLetterTopic;
        }

        public List<DeadLetterDescriptor> getDeadLetters() {
            return deadLetters;
        }
    }

    /** What one stage of this instance dead-lettered: a count and the last error. */
    public static final class DeadLetterDescriptor {

        private final DeadLetterReport report;

        DeadLetterDescriptor(DeadLetterReport report) {
            this.report = report;
        }

        public String getStage() {
            return report.stage();
        }

        public long getCount() {
            return report.count();
        }

        public @Nullable Map<String, Object> getLastError() {
            return report.last() == null ? null : ParsleyHealthIndicator.lastError(report.last());
        }
    }

    /** One stage. */
    public static final class StageDescriptor {

        private final String name;
        private final List<SourceDescriptor> sources;
        private final List<String> sinks;
        private final @Nullable String ticks;
        private final boolean stateful;

        StageDescriptor(Stage stage) {
            this.name = stage.name();
            this.sources = stage.sourceTopics().stream()
                    .map(t -> new SourceDescriptor(t, stage.foldsOver(t) ? "fold" : "handler")).toList();
            this.sinks = stage.sinkTopics();
            this.ticks = stage.tickInterval().map(Object::toString).orElse(null);
            this.stateful = stage.stateful();
        }

        public String getName() {
            return name;
        }

        public List<SourceDescriptor> getSources() {
            return sources;
        }

        public List<String> getSinks() {
            return sinks;
        }

        public @Nullable String getTicks() {
            return ticks;
        }

        public boolean isStateful() {
            return stateful;
        }
    }

    /** One source topic and the kind of logic consuming it. */
    public static final class SourceDescriptor {

        private final String topic;
        private final String logic;

        SourceDescriptor(String topic, String logic) {
            this.topic = topic;
            this.logic = logic;
        }

        public String getTopic() {
            return topic;
        }

        public String getLogic() {
            return logic;
        }
    }

    /** One held head. */
    public static final class HoldDescriptor {

        private final HeldRecord held;

        HoldDescriptor(HeldRecord held) {
            this.held = held;
        }

        public String getStage() {
            return held.stage();
        }

        public String getTask() {
            return held.taskId();
        }

        public String getTopic() {
            return held.topic();
        }

        public int getPartition() {
            return held.partition();
        }

        public long getOffset() {
            return held.offset();
        }

        public long getHeldForMs() {
            return held.heldFor().toMillis();
        }

        public int getQueued() {
            return held.queued();
        }

        public String getDiagnosis() {
            return held.diagnosis().code();
        }

        public List<ClaimDescriptor> getUnmetClaims() {
            return held.unmetClaims().stream().map(ClaimDescriptor::new).toList();
        }
    }

    /** One unmet claim of a held head: the position it waits for and why. */
    public static final class ClaimDescriptor {

        private final HeldRecord.UnmetClaim claim;

        ClaimDescriptor(HeldRecord.UnmetClaim claim) {
            this.claim = claim;
        }

        public String getDiagnosis() {
            return claim.diagnosis().code();
        }

        public String getTopic() {
            return claim.topic();
        }

        public int getPartition() {
            return claim.partition();
        }

        public @Nullable String getSender() {
            return claim.sender();
        }

        public long getClaimed() {
            return claim.claimed();
        }

        public long getLocal() {
            return claim.local();
        }
    }
}
