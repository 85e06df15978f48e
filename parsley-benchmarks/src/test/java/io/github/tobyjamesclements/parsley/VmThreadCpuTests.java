package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VmThreadCpuTests {

    @Test
    void theCollectorsAndTheCompilersThreadsAreKnownByTheirNamesAndNoOtherThreadIs() {
        assertThat(VmThreadCpu.kind("GC Thread#0")).isEqualTo(VmThreadCpu.Kind.GC);
        assertThat(VmThreadCpu.kind("G1 Conc#0")).isEqualTo(VmThreadCpu.Kind.GC);
        assertThat(VmThreadCpu.kind("G1 Refine#1")).isEqualTo(VmThreadCpu.Kind.GC);
        assertThat(VmThreadCpu.kind("C2 CompilerThre")).isEqualTo(VmThreadCpu.Kind.COMPILER);
        assertThat(VmThreadCpu.kind("C1 CompilerThre")).isEqualTo(VmThreadCpu.Kind.COMPILER);
        // the VM thread runs safepoint operations of every kind, not only the collector's
        assertThat(VmThreadCpu.kind("VM Thread")).isNull();
        assertThat(VmThreadCpu.kind("kafka-producer-")).isNull();
        assertThat(VmThreadCpu.kind("e2e-reader-e2e-")).isNull();
    }

    @Test
    void aCollectionShowsAsTheCollectorsTimePerRecord() {
        Map<VmThreadCpu.Kind, Long> before = VmThreadCpu.snapshot();
        assumeTrue(!before.isEmpty(), "no per-thread scheduler statistics on this platform");
        // the harness runs G1 (e2e.sh); the serial collector works on the VM thread, which is no kind
        assumeTrue(ManagementFactory.getGarbageCollectorMXBeans().stream().anyMatch(b -> b.getName().startsWith("G1")),
                "this JVM does not run G1");
        List<byte[]> kept = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            kept.add(new byte[1024]);
        }
        System.gc();
        Map<VmThreadCpu.Kind, Long> after = VmThreadCpu.snapshot();

        assertThat(kept).hasSize(20_000);
        assertThat(VmThreadCpu.usPerRecord(before, after, VmThreadCpu.Kind.GC, 1)).isPositive();
        // nanoseconds to microseconds, over 1,000 records; two roundings of a double apart
        assertThat(VmThreadCpu.usPerRecord(before, after, VmThreadCpu.Kind.GC, 1_000))
                .isCloseTo((after.get(VmThreadCpu.Kind.GC) - before.get(VmThreadCpu.Kind.GC)) / 1e6, within(1e-9));
    }

    @Test
    void withoutAReadingEitherSideTheShareIsUnknownNotZero() {
        assertThat(VmThreadCpu.usPerRecord(Map.of(), Map.of(VmThreadCpu.Kind.GC, 5L), VmThreadCpu.Kind.GC, 1)).isNaN();
        assertThat(VmThreadCpu.usPerRecord(Map.of(VmThreadCpu.Kind.GC, 5L), Map.of(), VmThreadCpu.Kind.GC, 1)).isNaN();
        // a kind no thread of which ran is zero, not unknown
        assertThat(VmThreadCpu.usPerRecord(Map.of(VmThreadCpu.Kind.GC, 5L), Map.of(VmThreadCpu.Kind.GC, 5L),
                VmThreadCpu.Kind.COMPILER, 1)).isZero();
    }
}
