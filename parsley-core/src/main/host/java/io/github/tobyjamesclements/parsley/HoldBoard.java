package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * What the local tasks of one application share with each other and with readers on other
 * threads: the wall clock that times holds, the held heads of every task with the wall-clock
 * time each hold started (published by each task whenever a head changes, and on its 500 ms
 * punctuator), which once-per-application warnings were logged, and the application's
 * {@link DeliveryObserver}. {@link #snapshot()} ages the holds when it is called. Thread-safe.
 */
final class HoldBoard {

    private final Map<String, List<Head>> byTask = new ConcurrentHashMap<>();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    private final LongSupplier wallClock;
    private final DeliveryObserver observer;
    private volatile LongSupplier lastTaskClock = () -> 0L;

    private HoldBoard(LongSupplier wallClock, DeliveryObserver observer) {
        this.wallClock = wallClock;
        this.observer = observer;
    }

    /** A board whose tasks and readers all read {@code wallClock}: the production host. */
    static HoldBoard timedBy(LongSupplier wallClock) {
        return new HoldBoard(wallClock, DeliveryObserver.NONE);
    }

    /**
     * A board whose tasks read their context's wall clock, the one a {@code TopologyTestDriver}
     * mocks, so that the hold gauges, which the driver reads on the same mocked clock, age as the
     * test advances it. A snapshot ages holds against the time the last task saw (in a driver, the
     * time of its last record or punctuation).
     */
    static HoldBoard timedByTasks() {
        return new HoldBoard(null, DeliveryObserver.NONE);
    }

    /** A new board on the same clock whose tasks report their deliveries to {@code observer}. */
    HoldBoard observedBy(DeliveryObserver observer) {
        return new HoldBoard(wallClock, observer);
    }

    DeliveryObserver observer() {
        return observer;
    }

    /** The clock a task times its holds with. */
    LongSupplier clockFor(ProcessorContext<?, ?> context) {
        if (wallClock != null) {
            return wallClock;
        }
        LongSupplier taskClock = context::currentSystemTimeMs;
        lastTaskClock = taskClock;
        return taskClock;
    }

    void publish(String taskKey, List<Head> heads) {
        if (heads.isEmpty()) {
            byTask.remove(taskKey);
        } else {
            byTask.put(taskKey, List.copyOf(heads));
        }
    }

    void remove(String taskKey) {
        byTask.remove(taskKey);
    }

    /** Whether {@code key} is warned about for the first time in this application (then it is marked). */
    boolean firstWarning(String key) {
        return warned.add(key);
    }

    /** Every local held head, aged now, longest held first. */
    List<HeldRecord> snapshot() {
        long now = (wallClock != null ? wallClock : lastTaskClock).getAsLong();
        List<HeldRecord> out = new ArrayList<>();
        byTask.values().forEach(heads -> heads.forEach(h -> out.add(h.at(now))));
        out.sort(Comparator.comparing(HeldRecord::heldFor).reversed()
                .thenComparing(HeldRecord::stage).thenComparing(HeldRecord::topic)
                .thenComparingInt(HeldRecord::partition));
        return out;
    }

    /** A held head as a task published it: a {@link HeldRecord} with its hold start instead of its age. */
    record Head(String stage, String taskId, String topic, int partition, long offset, long heldSince, int queued,
            List<HeldRecord.UnmetClaim> unmetClaims) {

        HeldRecord at(long now) {
            Duration heldFor = Duration.ofMillis(Math.max(0, now - heldSince));
            return new HeldRecord(stage, taskId, topic, partition, offset, heldFor, queued, unmetClaims);
        }
    }
}
