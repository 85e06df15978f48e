package io.github.tobyjamesclements.parsley;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * CPU time and allocated bytes of this JVM's threads by name: the harness, the applications under
 * test and their clients share the JVM, and a thread that waits for a core accrues wall time but
 * no CPU time, so CPU per record is steadier than throughput on a loaded machine. Allocation per
 * record is steadier still: the load does not move it.
 */
final class ThreadCpu {

    /** A Kafka Streams stream thread of any instance: {@code <client id>-StreamThread-<n>}. */
    static final Predicate<String> STREAM_THREAD = Pattern.compile("-StreamThread-\\d+$").asPredicate();
    /** The network thread of a stream thread's producer. */
    static final Predicate<String> STREAM_PRODUCER = Pattern.compile("StreamThread-\\d+-producer").asPredicate();
    /** A Kafka Streams state-updater thread, which restores the changelogs: {@code <client id>-StateUpdater-<n>}. */
    static final Predicate<String> STATE_UPDATER = Pattern.compile("-StateUpdater-\\d+$").asPredicate();

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** CPU nanoseconds and allocated bytes by thread name at one instant. */
    record Snapshot(Map<String, Long> cpu, Map<String, Long> allocated) {
    }

    private ThreadCpu() {
    }

    /** CPU nanoseconds and allocated bytes of every live thread whose name contains {@code part}. */
    static Snapshot snapshot(String part) {
        Map<String, Long> cpu = new HashMap<>();
        Map<String, Long> allocated = new HashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().contains(part)) {
                long c = THREADS.getThreadCpuTime(t.getId());
                long a = THREADS.getThreadAllocatedBytes(t.getId());
                if (c >= 0) {
                    cpu.merge(t.getName(), c, Long::sum);
                }
                if (a >= 0) {
                    allocated.merge(t.getName(), a, Long::sum);
                }
            }
        }
        return new Snapshot(cpu, allocated);
    }

    /** What the threads whose names match spent between two readings of one measure. */
    static long delta(Map<String, Long> before, Map<String, Long> after, Predicate<String> names) {
        long sum = 0;
        for (Map.Entry<String, Long> e : after.entrySet()) {
            if (names.test(e.getKey())) {
                sum += e.getValue() - before.getOrDefault(e.getKey(), 0L);
            }
        }
        return sum;
    }
}
