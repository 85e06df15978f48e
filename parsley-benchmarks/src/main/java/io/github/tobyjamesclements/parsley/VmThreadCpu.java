package io.github.tobyjamesclements.parsley;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;

/**
 * This JVM's own threads' CPU time, which {@link ThreadCpu} cannot see: the garbage collector's and
 * the JIT compilers' threads are the virtual machine's, not Java threads, so the thread MXBean
 * does not list them. Read on Linux from each thread's scheduler statistics
 * ({@code /proc/self/task/<tid>/schedstat}, whose first field is the nanoseconds the thread has
 * run) and its name ({@code comm}, the first 15 characters). Elsewhere every reading is empty and
 * every figure NaN. A thread that ends between two readings takes its time with it (HotSpot may
 * stop a compiler thread it no longer needs), so a figure may come short, never long.
 */
final class VmThreadCpu {

    /** The kinds of the virtual machine's threads that the harness reports apart. */
    enum Kind {
        /**
         * G1's workers, concurrent markers, refinement and service threads ({@code GC Thread#n},
         * {@code G1 …}); the harness runs G1 (e2e.sh). The serial collector works on the VM thread,
         * which is no kind: it runs safepoint operations of every sort.
         */
        GC,
        /** The C1 and C2 compilers' threads. */
        COMPILER
    }

    private static final Path TASKS = Path.of("/proc/self/task");

    private VmThreadCpu() {
    }

    /** The kind of a thread named {@code comm}, or null for any other thread. */
    static Kind kind(String comm) {
        if (comm.startsWith("GC Thread") || comm.startsWith("G1 ")) {
            return Kind.GC;
        }
        if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
            return Kind.COMPILER;
        }
        return null;
    }

    /** The CPU nanoseconds of each kind's live threads so far; empty where the platform does not say. */
    static Map<Kind, Long> snapshot() {
        Map<Kind, Long> out = new EnumMap<>(Kind.class);
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                add(out, task);
            }
        } catch (IOException | UnsupportedOperationException notLinux) {
            return Map.of();
        }
        return out;
    }

    private static void add(Map<Kind, Long> out, Path task) {
        try {
            Kind kind = kind(Files.readString(task.resolve("comm")).strip());
            if (kind != null) {
                String stat = Files.readString(task.resolve("schedstat"));
                out.merge(kind, Long.parseLong(stat.substring(0, stat.indexOf(' '))), Long::sum);
            }
        } catch (IOException ended) {
            // the thread ended while it was read: its time is gone with it (see the class comment)
        }
    }

    /**
     * What threads of {@code kind} spent per record of {@code records} between two snapshots, in
     * microseconds; NaN where either snapshot is empty.
     */
    static double usPerRecord(Map<Kind, Long> before, Map<Kind, Long> after, Kind kind, int records) {
        if (before.isEmpty() || after.isEmpty()) {
            return Double.NaN;
        }
        return (after.getOrDefault(kind, 0L) - before.getOrDefault(kind, 0L)) / 1e3 / records;
    }
}
