package io.github.tobyjamesclements.parsley;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * CPU time per operation, for a shared machine where wall time mostly measures the other tenants:
 * a benchmark thread that waits for a core accrues wall time but no CPU time. Reports
 * {@code cpu.worker.norm} (the JMH worker threads: the benchmark code itself) and
 * {@code cpu.process.norm} (the whole fork: adds GC, JIT and harness threads), both in ns/op,
 * normalised like JMH's own {@code gc.alloc.rate.norm}. Use with
 * {@code -prof io.github.tobyjamesclements.parsley.CpuTimeProfiler}.
 *
 * <p>What it does not remove: cache and memory-bandwidth interference from other processes, and
 * hypervisor steal time if the guest kernel charges it to the running thread.
 */
public final class CpuTimeProfiler implements InternalProfiler {

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private Map<Long, Long> workerStart = new HashMap<>();
    private long processStart;

    @Override
    public String getDescription() {
        return "CPU time per operation: JMH worker threads and the whole process";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        workerStart = workerCpu();
        processStart = os.getProcessCpuTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
            IterationParams iterationParams, IterationResult result) {
        long process = os.getProcessCpuTime() - processStart;
        long worker = 0;
        for (Map.Entry<Long, Long> e : workerCpu().entrySet()) {
            worker += e.getValue() - workerStart.getOrDefault(e.getKey(), 0L);
        }
        double ops = Math.max(1, result.getMetadata().getAllOps());
        return List.of(new ScalarResult("cpu.worker.norm", worker / ops, "ns/op", AggregationPolicy.AVG),
                new ScalarResult("cpu.process.norm", process / ops, "ns/op", AggregationPolicy.AVG));
    }

    private Map<Long, Long> workerCpu() {
        Map<Long, Long> out = new HashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().contains("jmh-worker")) {
                long cpu = threads.getThreadCpuTime(t.getId());
                if (cpu >= 0) {
                    out.put(t.getId(), cpu);
                }
            }
        }
        return out;
    }
}
