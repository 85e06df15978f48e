package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * The wall-clock punctuators of one stage task (protocol.md §12.4), each scheduled only while it has
 * work. Kafka Streams marks a task as needing a commit after every punctuation, whatever it did
 * ({@code StreamTask.maybePunctuateSystemTime}), and under {@code exactly_once_v2} that commit is a
 * transaction re-committing the same offsets: a punctuator that fires while the task is idle costs
 * the cluster a transaction per firing. So:
 *
 * <ul>
 *   <li>the sweep runs every {@link #SWEEP_INTERVAL} only while {@code sweepWanted} says it has work
 *       (a record held, a probe wanted): the step that makes work arms it, and the first sweep that
 *       leaves none cancels it. A task whose state is read ({@code settles}) also sweeps after its
 *       steps, until a sweep finds no step since the one before: its frontier then passes the
 *       markers that end its partitions' last transactions, which only a consumer position proves
 *       (§2), so a read waiting on an end offset (§17.2) is answered at rest too;
 *   <li>truncation runs once, {@code truncationInterval} after the first delivery since the last
 *       truncation: it narrows what the task stamps, and a task that delivers nothing sends nothing
 *       (its ticks come back to it as deliveries);
 *   <li>ticks are the user's cadence and run unconditionally.
 * </ul>
 *
 * <p>Truncation also re-resolves the declared topics (F25, protocol.md §16.4). An idle task no longer
 * truncates, so the delivery that arms truncation checks them first when the last check (at init,
 * or by the last truncation) is an interval old: a task never sends more than one interval after a
 * check, as when truncation ran unconditionally, and a stage idle across a topic's recreation
 * fails before its first send into it.
 */
final class Punctuators {

    static final Duration SWEEP_INTERVAL = Duration.ofMillis(500);

    private final ProcessorContext<?, ?> context;
    private final BooleanSupplier sweepWanted;
    private final Runnable sweep;
    private final Duration truncationInterval;
    private final Runnable truncation;
    private final Runnable topicCheck;
    private final boolean settles;
    private boolean steppedSinceSweep;
    /** When the declared topics were last checked, on the task's clock. */
    private long checkedAt;
    /** The scheduled sweep, or null while it has no work. */
    private Cancellable sweeping;
    /** The scheduled truncation, or null until a delivery after the last one. */
    private Cancellable truncating;

    /**
     * Created right after the task's init checked the declared topics; {@code truncation} checks
     * them too, then truncates, and {@code topicCheck} only checks them.
     */
    Punctuators(ProcessorContext<?, ?> context, BooleanSupplier sweepWanted, Runnable sweep,
            Duration truncationInterval, Runnable truncation, Runnable topicCheck) {
        this(context, sweepWanted, sweep, truncationInterval, truncation, topicCheck, false);
    }

    /** {@code settles}: the task's state is read, so it sweeps after its steps until it is at rest. */
    Punctuators(ProcessorContext<?, ?> context, BooleanSupplier sweepWanted, Runnable sweep,
            Duration truncationInterval, Runnable truncation, Runnable topicCheck, boolean settles) {
        this.settles = settles;
        this.context = context;
        this.sweepWanted = sweepWanted;
        this.sweep = sweep;
        this.truncationInterval = truncationInterval;
        this.truncation = truncation;
        this.topicCheck = topicCheck;
        this.checkedAt = context.currentSystemTimeMs();
    }

    /** Schedules {@code tick} every {@code interval}, for as long as the task lives. */
    void ticks(Duration interval, Punctuator tick) {
        context.schedule(interval, PunctuationType.WALL_CLOCK_TIME, tick);
    }

    /** After a step, and at init for records restored held: arms the sweep if it has work now. */
    void afterStep() {
        steppedSinceSweep = true;
        if (sweeping == null && (settles || sweepWanted.getAsBoolean())) {
            sweeping = context.schedule(SWEEP_INTERVAL, PunctuationType.WALL_CLOCK_TIME, now -> sweepWhileWanted());
        }
    }

    /**
     * Records were delivered and are about to be sent: arms the next truncation unless it is armed
     * already, checking the declared topics first if the last check is an interval old.
     */
    void delivered() {
        if (truncating == null) {
            long now = context.currentSystemTimeMs();
            if (now - checkedAt >= truncationInterval.toMillis()) {
                topicCheck.run();
                checkedAt = now;
            }
            truncating = context.schedule(truncationInterval, PunctuationType.WALL_CLOCK_TIME, t -> truncateOnce());
        }
    }

    private void sweepWhileWanted() {
        boolean stepped = steppedSinceSweep;
        steppedSinceSweep = false;
        sweep.run();
        if (!sweepWanted.getAsBoolean() && !(settles && stepped)) {
            // Cancelling from within its own punctuation is supported: Streams reschedules only uncancelled ones.
            sweeping.cancel();
            sweeping = null;
        }
    }

    private void truncateOnce() {
        truncating.cancel();
        truncating = null;
        truncation.run();
        checkedAt = context.currentSystemTimeMs();
    }
}
