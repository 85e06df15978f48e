package io.github.tobyjamesclements.parsley;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * CPU time of this JVM's threads by name: the harness, the applications under test and their
 * clients share the JVM, and a thread that waits for a core accrues wall time but no CPU time, so
 * CPU per record is steadier than throughput on a loaded machine.
 */
final class ThreadCpu {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ThreadCpu() {
    }

    /** CPU nanoseconds of every live thread whose name contains {@code part}, by name. */
    static Map<String, Long> snapshot(String part) {
        Map<String, Long> out = new HashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().contains(part)) {
                long cpu = THREADS.getThreadCpuTime(t.getId());
                if (cpu >= 0) {
                    out.merge(t.getName(), cpu, Long::sum);
                }
            }
        }
        return out;
    }

    /** CPU nanoseconds spent between two snapshots by the threads whose names match. */
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
