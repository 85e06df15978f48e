package io.github.tobyjamesclements.parsley;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * What the pre-loaded phase of a run cost the machine per record, beyond the stream threads: this
 * JVM as a whole (the application, its clients, the output reader, the collector and the
 * compiler) and the broker's JVM. The application shares the machine's two cores with these, so
 * where a throughput ratio and the stream thread's CPU ratio disagree, these say which process
 * spent the difference (docs/design-record/performance-results.md, "Results: realistic variant").
 * The harness's output reader runs in this JVM too: it is the application's downstream consumer, not the application,
 * so its share is reported apart and left out of {@link #applicationUs}. A figure that cannot be
 * read is NaN: the broker's needs its process id ({@code --broker-pid}, which e2e.sh passes).
 *
 * @param harnessUs this JVM's CPU per record, every thread and the JVM's own, in microseconds
 * @param readerUs the output reader thread's CPU per record, part of {@code harnessUs}
 * @param brokerUs the broker process's CPU per record, in microseconds
 * @param gcUs the garbage collector's threads' CPU per record, part of {@code harnessUs} (NaN where
 *     {@link VmThreadCpu} cannot read it)
 * @param compilerUs the JIT compilers' threads' CPU per record, part of {@code harnessUs} (likewise)
 */
record E2ePreloadCost(double harnessUs, double readerUs, double brokerUs, double gcUs, double compilerUs) {

    /** A run that was not metered: NaNs, a dash in a ratio table. */
    private static final E2ePreloadCost NONE = new E2ePreloadCost(Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN);

    /** The variants with a row over another one, in the order of the report's sections. */
    private static final List<Row> ROWS = List.of(
            new Row("Parsley / plain", E2eVariant.PARSLEY, E2eVariant.BASELINE),
            new Row("Floor / plain", E2eVariant.FLOOR, E2eVariant.BASELINE),
            new Row("Parsley / floor", E2eVariant.PARSLEY, E2eVariant.FLOOR),
            new Row("Two-source / plain copy", E2eVariant.TWO_SOURCE, E2eVariant.BASELINE),
            new Row("JSON Parsley / plain JSON", E2eVariant.JSON_PARSLEY, E2eVariant.JSON_BASELINE),
            new Row("JSON floor / plain JSON", E2eVariant.JSON_FLOOR, E2eVariant.JSON_BASELINE),
            new Row("JSON Parsley / JSON floor", E2eVariant.JSON_PARSLEY, E2eVariant.JSON_FLOOR),
            new Row("Bare JSON floor / plain JSON", E2eVariant.JSON_FLOOR_BARE, E2eVariant.JSON_BASELINE),
            new Row("JSON floor / bare JSON floor", E2eVariant.JSON_FLOOR, E2eVariant.JSON_FLOOR_BARE));

    private record Row(String name, E2eVariant variant, E2eVariant base) {
    }

    /** This JVM and the broker together: what the phase cost the machine per record. */
    double machineUs() {
        return harnessUs + brokerUs;
    }

    /** The machine's CPU per record without the output reader's: the application's and the broker's. */
    double applicationUs() {
        return machineUs() - readerUs;
    }

    /**
     * This JVM's, its output reader's, its collector's and compilers' and the broker's CPU time when a
     * phase starts; {@link #stop} charges what follows.
     */
    record Start(long harnessNanos, LongSupplier readerCpu, long readerNanos, Map<VmThreadCpu.Kind, Long> vm,
            long brokerNanos, long brokerPid) {

        /** The cost per record of {@code records} since this reading. */
        E2ePreloadCost stop(int records) {
            double harness = (E2eLiveCost.harnessCpuNanos() - harnessNanos) / 1e3 / records;
            double reading = (readerCpu.getAsLong() - readerNanos) / 1e3 / records;
            Map<VmThreadCpu.Kind, Long> vmNow = VmThreadCpu.snapshot();
            return new E2ePreloadCost(harness, reading, E2eLiveCost.brokerUsSince(brokerNanos, brokerPid, records),
                    VmThreadCpu.usPerRecord(vm, vmNow, VmThreadCpu.Kind.GC, records),
                    VmThreadCpu.usPerRecord(vm, vmNow, VmThreadCpu.Kind.COMPILER, records));
        }
    }

    /**
     * Reads this JVM's CPU time, the output reader's ({@code readerCpu}: its thread's CPU time so
     * far) and that of the broker whose process id is {@code brokerPid} (0 if unknown).
     */
    static Start start(long brokerPid, LongSupplier readerCpu) {
        return new Start(E2eLiveCost.harnessCpuNanos(), readerCpu, readerCpu.getAsLong(), VmThreadCpu.snapshot(),
                E2eLiveCost.brokerCpuNanos(brokerPid), brokerPid);
    }

    /**
     * The section of the runs whose pre-loaded phase was metered: each run's cost by process, then
     * the same-round ratios of every variant that ran over its base; nothing when none was metered.
     */
    static void section(StringBuilder s, E2eRatios t, List<E2eRun> runs) {
        if (runs.stream().noneMatch(r -> r.preloadCost != null)) {
            return;
        }
        s.append("### Pre-loaded phase: CPU per record by process\n\n");
        s.append("The application shares the machine's cores with the broker and the output reader. Harness JVM:"
                + " every thread of the JVM that runs the application (its stream thread and clients, the output"
                + " reader, the collector and the compiler); the machine is that JVM plus the broker's; the"
                + " application's share is the machine's without the output reader's. GC and compiler: the JVM's"
                + " garbage collector's and JIT compilers' threads, part of the harness JVM's CPU (Linux only)."
                + " Cores: CPU per record times the rate, the CPU per second the stream thread and the machine used"
                + " over the phase; where variants use about the same, a rate ratio is the inverse of a"
                + " CPU-per-record ratio by arithmetic, and the ratios say where the extra CPU went, not which"
                + " process set the pace.\n\n");
        runTable(s, runs);
        t.head();
        for (Row row : ROWS) {
            if (ran(runs, row.variant()) && ran(runs, row.base())) {
                t.over(row.name() + ": harness JVM CPU per record", row.variant(), row.base(), r -> of(r).harnessUs());
                t.over(row.name() + ": GC threads' CPU per record", row.variant(), row.base(), r -> of(r).gcUs());
                t.over(row.name() + ": broker CPU per record", row.variant(), row.base(), r -> of(r).brokerUs());
                t.over(row.name() + ": machine CPU per record", row.variant(), row.base(), r -> of(r).machineUs());
                t.over(row.name() + ": machine CPU per record without the output reader", row.variant(), row.base(),
                        r -> of(r).applicationUs());
            }
        }
        s.append('\n');
    }

    /** One row per metered run: its cost by process. */
    private static void runTable(StringBuilder s, List<E2eRun> runs) {
        s.append("| Round | Variant | Pre-loaded rec/s | Stream thread us/rec | Output reader us/rec | Harness JVM us/rec"
                + " | GC us/rec | Compiler us/rec | Broker us/rec | Machine us/rec | Machine without the reader us/rec"
                + " | Stream thread cores | Machine cores |\n"
                + "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (E2eRun r : runs) {
            if (r.error == null && r.preloadCost != null) {
                E2ePreloadCost c = r.preloadCost;
                s.append(String.format(Locale.ROOT,
                        "| %d | %s | %,.0f | %.1f | %.1f | %.1f | %.2f | %.2f | %.1f | %.1f | %.1f | %.2f | %.2f |%n",
                        r.round, r.variant.label, r.preloadRate, r.streamCpuUs, c.readerUs(), c.harnessUs(), c.gcUs(),
                        c.compilerUs(), c.brokerUs(), c.machineUs(), c.applicationUs(),
                        cores(r.streamCpuUs, r.preloadRate), cores(c.machineUs(), r.preloadRate)));
            }
        }
        s.append('\n');
    }

    /** CPU seconds per second: {@code us} microseconds per record at {@code rate} records a second. */
    static double cores(double us, double rate) {
        return us * rate / 1e6;
    }

    private static boolean ran(List<E2eRun> runs, E2eVariant v) {
        return runs.stream().anyMatch(r -> r.variant == v && r.error == null);
    }

    private static E2ePreloadCost of(E2eRun r) {
        return r.preloadCost != null ? r.preloadCost : NONE;
    }
}
