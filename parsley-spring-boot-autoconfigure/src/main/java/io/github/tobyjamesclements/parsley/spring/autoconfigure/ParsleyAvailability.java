package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.spring.lifecycle.BrokerConnectivity;
import org.apache.kafka.streams.KafkaStreams;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.AvailabilityState;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationListener;

/**
 * Reports the Kafka Streams client to Spring Boot's application availability, which backs the
 * {@code /actuator/health/liveness} and {@code /actuator/health/readiness} probes.
 *
 * <p>Liveness: once the client dies ({@code PENDING_ERROR} or {@code ERROR}, reached only through
 * a fatal error, never through a close), the application is {@link LivenessState#BROKEN} for good,
 * so an orchestrator restarts it; a dead client cannot be started again. A deliberate close leaves
 * liveness alone. Parsley never declares the application {@link LivenessState#CORRECT}: that is
 * Spring Boot's to say, and a later {@code CORRECT} from elsewhere is answered with
 * {@code BROKEN} again while the client is dead.
 *
 * <p>Readiness, when enabled: {@link ReadinessState#ACCEPTING_TRAFFIC} only while the application
 * itself accepts traffic (as Spring Boot reports once it is ready, until it shuts down) and the
 * client is {@code RUNNING}; {@link ReadinessState#REFUSING_TRAFFIC} otherwise, a rebalance
 * included. When disabled, the client's state never touches readiness.
 *
 * <p>Broker outages, whatever the readiness setting: while a {@link BrokerConnectivity} check
 * reports the Kafka cluster lost ({@code parsley.health.broker-timeout}),
 * {@link ReadinessState#REFUSING_TRAFFIC}; once it answers again, back to what the application
 * and the client say. Unlike a rebalance, which every deploy brings, an outage is rare and leaves
 * the instance unable to do its Kafka work. Liveness stays as it is: a restart does not bring a
 * broker back.
 *
 * <p>It must see every state transition of the client: the auto-configured {@code CausalStreams}
 * passes them to it, as to every {@link KafkaStreams.StateListener} bean; and the auto-configured
 * broker check reports to it. Thread-safe.
 */
public final class ParsleyAvailability implements KafkaStreams.StateListener,
        ApplicationListener<AvailabilityChangeEvent<?>>, BrokerConnectivity.Listener {

    private static final Logger log = LoggerFactory.getLogger(ParsleyAvailability.class);

    private final ApplicationEventPublisher events;
    private final ApplicationAvailability availability;
    private final String applicationId;
    private final boolean readiness;

    private KafkaStreams.@Nullable State state;
    private boolean dead;
    private boolean applicationReady;
    private boolean brokerReported;
    private boolean brokerLost;

    /**
     * Creates the reporter.
     *
     * @param events where availability changes are published
     * @param availability the application's availability, read to publish only what changes it; the
     *     reporter must be created after it, so that it hears each availability event after it
     * @param applicationId the application id, for the log
     * @param readiness whether readiness follows the client
     */
    public ParsleyAvailability(ApplicationEventPublisher events, ApplicationAvailability availability,
            String applicationId, boolean readiness) {
        this.events = events;
        this.availability = availability;
        this.applicationId = applicationId;
        this.readiness = readiness;
    }

    @Override
    public synchronized void onChange(KafkaStreams.State newState, KafkaStreams.State oldState) {
        state = newState;
        if (!dead && (newState == KafkaStreams.State.PENDING_ERROR || newState == KafkaStreams.State.ERROR)) {
            dead = true;
            log.warn("Parsley application '{}' stopped after a fatal error (state {}); liveness is now BROKEN so"
                    + " that the platform restarts this instance. The error is in the log above and in"
                    + " /actuator/health/parsley (lastError).", applicationId, newState);
        }
        reconcile();
    }

    @Override
    public synchronized void onBrokerConnectivity(boolean lost) {
        brokerReported = true;
        brokerLost = lost;
        reconcile();
    }

    @Override
    public synchronized void onApplicationEvent(AvailabilityChangeEvent<?> event) {
        if (event.getSource() == this) {
            return;
        }
        if (event.getState() instanceof ReadinessState r) {
            applicationReady = r == ReadinessState.ACCEPTING_TRAFFIC;
        }
        reconcile();
    }

    /** Publishes what the application's availability lacks of the client's. */
    private void reconcile() {
        if (dead && availability.getLivenessState() != LivenessState.BROKEN) {
            publish(LivenessState.BROKEN);
        }
        if (readiness || brokerReported) {
            boolean clientReady = !readiness || state == KafkaStreams.State.RUNNING;
            ReadinessState wanted = applicationReady && clientReady && !brokerLost
                    ? ReadinessState.ACCEPTING_TRAFFIC : ReadinessState.REFUSING_TRAFFIC;
            if (availability.getReadinessState() != wanted) {
                publish(wanted);
            }
        }
    }

    /** Publishes a change; a failing listener must not fail the stream thread that reports a transition. */
    private void publish(AvailabilityState change) {
        try {
            AvailabilityChangeEvent.publish(events, this, change);
        } catch (RuntimeException e) {
            log.warn("Parsley application '{}': could not publish availability {} (client state {}): {}",
                    applicationId, change, state, e.toString(), e);
        }
    }
}
