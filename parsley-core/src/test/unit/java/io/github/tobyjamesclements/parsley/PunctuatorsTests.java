package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.junit.jupiter.api.Test;

/**
 * Every punctuation makes Kafka Streams commit the task, a transaction under exactly-once, so a
 * punctuator may be scheduled only while it has work: these pin when each is armed and cancelled.
 * {@code IdleCommitsIT} shows the effect on a broker.
 */
class PunctuatorsTests {

    private static final Duration TRUNCATION = Duration.ofMinutes(10);

    private final MockProcessorContext<Object, Object> context = startedAt(0);
    private final AtomicBoolean held = new AtomicBoolean();
    private final AtomicInteger sweeps = new AtomicInteger();
    private final AtomicInteger truncations = new AtomicInteger();
    private final AtomicInteger topicChecks = new AtomicInteger();
    private final Punctuators punctuators = new Punctuators(context, held::get, sweeps::incrementAndGet, TRUNCATION,
            truncations::incrementAndGet, topicChecks::incrementAndGet);

    private static MockProcessorContext<Object, Object> startedAt(long millis) {
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
        context.setCurrentSystemTimeMs(millis);
        return context;
    }

    @Test
    void anIdleTaskSchedulesNothing() {
        punctuators.afterStep();
        punctuators.afterStep();

        assertThat(context.scheduledPunctuators()).isEmpty();
    }

    @Test
    void aHoldArmsOneSweepThatRunsUntilNothingIsHeld() {
        held.set(true);
        punctuators.afterStep();
        punctuators.afterStep();
        assertThat(context.scheduledPunctuators()).singleElement().satisfies(p -> {
            assertThat(p.getInterval()).isEqualTo(Punctuators.SWEEP_INTERVAL);
            assertThat(p.getType()).isEqualTo(PunctuationType.WALL_CLOCK_TIME);
        });
        CapturedPunctuator sweep = context.scheduledPunctuators().get(0);

        sweep.getPunctuator().punctuate(500);
        assertThat(sweep.cancelled()).as("still held: the sweep goes on").isFalse();
        held.set(false);
        sweep.getPunctuator().punctuate(1000);

        assertThat(sweeps).hasValue(2);
        assertThat(sweep.cancelled()).as("nothing held: the last sweep cancels itself").isTrue();
    }

    @Test
    void aHoldAfterIdlingArmsTheSweepAgain() {
        held.set(true);
        punctuators.afterStep();
        held.set(false);
        context.scheduledPunctuators().get(0).getPunctuator().punctuate(500);
        punctuators.afterStep();
        held.set(true);
        punctuators.afterStep();

        List<CapturedPunctuator> scheduled = context.scheduledPunctuators();
        assertThat(scheduled).hasSize(2);
        assertThat(scheduled.get(1).cancelled()).isFalse();
    }

    @Test
    void truncationRunsOnceAnIntervalAfterTheFirstDeliverySinceTheLast() {
        punctuators.delivered();
        punctuators.delivered();
        assertThat(context.scheduledPunctuators()).singleElement()
                .satisfies(p -> assertThat(p.getInterval()).isEqualTo(TRUNCATION));
        CapturedPunctuator first = context.scheduledPunctuators().get(0);

        first.getPunctuator().punctuate(TRUNCATION.toMillis());
        assertThat(truncations).hasValue(1);
        assertThat(first.cancelled()).isTrue();
        punctuators.delivered();

        assertThat(context.scheduledPunctuators()).hasSize(2);
        assertThat(context.scheduledPunctuators().get(1).cancelled()).isFalse();
    }

    /**
     * Truncation checks the declared topics (F25); since an idle task no longer truncates, the
     * delivery that arms it checks them first when the last check is an interval old, so nothing is
     * sent more than an interval after a check.
     */
    @Test
    void theDeliveryThatArmsTruncationChecksTheTopicsOnlyWhenTheLastCheckIsAnIntervalOld() {
        long interval = TRUNCATION.toMillis();
        punctuators.delivered();
        assertThat(topicChecks).as("init checked them").hasValue(0);
        context.setCurrentSystemTimeMs(interval);
        context.scheduledPunctuators().get(0).getPunctuator().punctuate(interval);

        context.setCurrentSystemTimeMs(2 * interval - 1);
        punctuators.delivered();
        assertThat(topicChecks).as("the truncation checked them").hasValue(0);
        context.setCurrentSystemTimeMs(3 * interval - 1);
        context.scheduledPunctuators().get(1).getPunctuator().punctuate(3 * interval - 1);
        context.setCurrentSystemTimeMs(4 * interval - 1);
        punctuators.delivered();

        assertThat(topicChecks).as("an interval after the last truncation").hasValue(1);
        assertThat(truncations).hasValue(2);
    }

    @Test
    void ticksRunAtTheirIntervalWhetherOrNotThereIsWork() {
        punctuators.ticks(Duration.ofSeconds(1), now -> { });

        assertThat(context.scheduledPunctuators()).singleElement()
                .satisfies(p -> assertThat(p.getInterval()).isEqualTo(Duration.ofSeconds(1)));
    }
}
