package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import static org.apache.kafka.streams.KafkaStreams.State.CREATED;
import static org.apache.kafka.streams.KafkaStreams.State.ERROR;
import static org.apache.kafka.streams.KafkaStreams.State.NOT_RUNNING;
import static org.apache.kafka.streams.KafkaStreams.State.PENDING_ERROR;
import static org.apache.kafka.streams.KafkaStreams.State.PENDING_SHUTDOWN;
import static org.apache.kafka.streams.KafkaStreams.State.REBALANCING;
import static org.apache.kafka.streams.KafkaStreams.State.RUNNING;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ApplicationAvailabilityBean;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.AvailabilityState;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.support.GenericApplicationContext;

/**
 * Tests for {@link ParsleyAvailability} in a real application context with Spring Boot's
 * {@link ApplicationAvailabilityBean}: the client's transitions are fed by hand, and the events
 * Spring Boot publishes on its own (liveness {@code CORRECT} once started, readiness
 * {@code ACCEPTING_TRAFFIC} once ready, {@code REFUSING_TRAFFIC} on shutdown) are published as it
 * does. The broker-backed behaviour is in {@link ParsleyAvailabilityIT}.
 */
class ParsleyAvailabilityTests {

    private final GenericApplicationContext context = new GenericApplicationContext();

    private final List<AvailabilityState> published = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        context.close();
    }

    @Test
    void aDeadClientBreaksLivenessForGood() {
        ParsleyAvailability parsley = start(false);
        bootSays(LivenessState.CORRECT);
        transitions(parsley, CREATED, REBALANCING, RUNNING);
        assertThat(availability().getLivenessState()).isEqualTo(LivenessState.CORRECT);

        transitions(parsley, RUNNING, PENDING_ERROR);
        assertThat(availability().getLivenessState()).isEqualTo(LivenessState.BROKEN);

        bootSays(LivenessState.CORRECT);
        transitions(parsley, PENDING_ERROR, ERROR, PENDING_SHUTDOWN, NOT_RUNNING);
        assertThat(availability().getLivenessState()).as("a dead client cannot come back").isEqualTo(
                LivenessState.BROKEN);
        assertThat(published).containsExactly(LivenessState.BROKEN, LivenessState.BROKEN);
    }

    @Test
    void aDeliberateCloseLeavesLivenessAlone() {
        ParsleyAvailability parsley = start(true);
        bootSays(LivenessState.CORRECT);
        transitions(parsley, CREATED, REBALANCING, RUNNING, PENDING_SHUTDOWN, NOT_RUNNING);
        assertThat(availability().getLivenessState()).isEqualTo(LivenessState.CORRECT);
        assertThat(published).doesNotContain(LivenessState.BROKEN);
    }

    @Test
    void aClientThatDiesBeforeTheApplicationHasStartedKeepsItBroken() {
        ParsleyAvailability parsley = start(false);
        transitions(parsley, CREATED, REBALANCING, PENDING_ERROR, ERROR);
        bootSays(LivenessState.CORRECT);
        assertThat(availability().getLivenessState()).isEqualTo(LivenessState.BROKEN);
    }

    @Test
    void readinessIgnoresTheClientWhenDisabled() {
        ParsleyAvailability parsley = start(false);
        bootSays(LivenessState.CORRECT);
        bootSays(ReadinessState.ACCEPTING_TRAFFIC);
        transitions(parsley, CREATED, REBALANCING, RUNNING, REBALANCING, PENDING_ERROR, ERROR);
        assertThat(availability().getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
        assertThat(published).containsExactly(LivenessState.BROKEN);
    }

    @Test
    void readinessFollowsRunningWhileTheApplicationIsReady() {
        ParsleyAvailability parsley = start(true);
        transitions(parsley, CREATED, REBALANCING, RUNNING);
        assertThat(availability().getReadinessState()).as("running before the application is ready")
                .isEqualTo(ReadinessState.REFUSING_TRAFFIC);

        bootSays(ReadinessState.ACCEPTING_TRAFFIC);
        assertThat(availability().getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
        transitions(parsley, RUNNING, REBALANCING);
        assertThat(availability().getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
        transitions(parsley, REBALANCING, RUNNING);
        assertThat(availability().getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);

        bootSays(ReadinessState.REFUSING_TRAFFIC);
        transitions(parsley, RUNNING, REBALANCING, RUNNING);
        assertThat(availability().getReadinessState()).as("shutting down").isEqualTo(
                ReadinessState.REFUSING_TRAFFIC);
        assertThat(published).containsExactly(ReadinessState.REFUSING_TRAFFIC, ReadinessState.ACCEPTING_TRAFFIC);
    }

    @Test
    void anApplicationReadyBeforeTheClientRunsStillRefusesTraffic() {
        ParsleyAvailability parsley = start(true);
        transitions(parsley, CREATED, REBALANCING);
        bootSays(ReadinessState.ACCEPTING_TRAFFIC);
        assertThat(availability().getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
        transitions(parsley, REBALANCING, RUNNING);
        assertThat(availability().getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
        transitions(parsley, RUNNING, PENDING_ERROR);
        assertThat(availability().getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
    }

    @Test
    void aLostClusterRefusesTrafficWhileItLastsWhateverTheReadinessSettingAndLeavesLivenessAlone() {
        ParsleyAvailability parsley = start(false);
        bootSays(LivenessState.CORRECT);
        bootSays(ReadinessState.ACCEPTING_TRAFFIC);
        transitions(parsley, CREATED, REBALANCING, RUNNING);

        parsley.onBrokerConnectivity(true);
        assertThat(availability().getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
        assertThat(availability().getLivenessState()).isEqualTo(LivenessState.CORRECT);
        parsley.onBrokerConnectivity(false);
        assertThat(availability().getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
        assertThat(published).containsExactly(ReadinessState.REFUSING_TRAFFIC, ReadinessState.ACCEPTING_TRAFFIC);
    }

    @Test
    void theEndOfAnOutageAcceptsTrafficOnlyWhenTheClientAndTheApplicationAllow() {
        ParsleyAvailability parsley = start(true);
        bootSays(ReadinessState.ACCEPTING_TRAFFIC);
        transitions(parsley, CREATED, REBALANCING, RUNNING);
        parsley.onBrokerConnectivity(true);
        transitions(parsley, RUNNING, REBALANCING);
        parsley.onBrokerConnectivity(false);
        assertThat(availability().getReadinessState()).as("still rebalancing").isEqualTo(
                ReadinessState.REFUSING_TRAFFIC);
        transitions(parsley, REBALANCING, RUNNING);
        assertThat(availability().getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);

        parsley.onBrokerConnectivity(true);
        bootSays(ReadinessState.REFUSING_TRAFFIC);
        parsley.onBrokerConnectivity(false);
        assertThat(availability().getReadinessState()).as("shutting down").isEqualTo(
                ReadinessState.REFUSING_TRAFFIC);
    }

    @Test
    void isConfiguredOnlyWithARunningApplication() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ApplicationAvailabilityAutoConfiguration.class,
                        KafkaAutoConfiguration.class, ParsleyAutoConfiguration.class,
                        ParsleyStreamsAutoConfiguration.class, ParsleyAvailabilityAutoConfiguration.class))
                .withUserConfiguration(TestShop.APPLICATION)
                .withPropertyValues("spring.application.name=shop", "parsley.streams.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ParsleyAvailability.class));
    }

    /**
     * Starts the context the way the auto-configuration orders it: Spring Boot's availability bean
     * first, then the reporter, which depends on it.
     */
    private ParsleyAvailability start(boolean readiness) {
        context.registerBean(ApplicationAvailabilityBean.class);
        context.registerBean(ParsleyAvailability.class, () -> new ParsleyAvailability(context,
                context.getBean(ApplicationAvailability.class), "shop", readiness));
        context.registerBean(Recorder.class, () -> new Recorder(published));
        context.refresh();
        return context.getBean(ParsleyAvailability.class);
    }

    private ApplicationAvailability availability() {
        return context.getBean(ApplicationAvailability.class);
    }

    private void bootSays(AvailabilityState state) {
        AvailabilityChangeEvent.publish(context, state);
    }

    private static void transitions(ParsleyAvailability parsley, KafkaStreams.State... states) {
        for (int i = 1; i < states.length; i++) {
            parsley.onChange(states[i], states[i - 1]);
        }
    }

    /** Records what Parsley published. */
    record Recorder(List<AvailabilityState> published) implements ApplicationListener<AvailabilityChangeEvent<?>> {

        @Override
        public void onApplicationEvent(AvailabilityChangeEvent<?> event) {
            if (event.getSource() instanceof ParsleyAvailability) {
                published.add(event.getState());
            }
        }
    }
}
