package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class E2ePreloadCostTests {

    @Test
    void aStartChargesTheCpuThisJvmSpentSinceToTheRecordsAndReadsTheBrokerFromItsProcessId() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        // this thread stands for the output reader: its spin is the reader's share of this JVM's CPU
        E2ePreloadCost.Start start = E2ePreloadCost.start(ProcessHandle.current().pid(),
                threads::getCurrentThreadCpuTime);
        long spin = 0;
        // 200 ms of this thread's CPU, not of the wall clock: on a loaded machine a wall-clock spin gets less
        long until = threads.getCurrentThreadCpuTime() + 200_000_000;
        while (threads.getCurrentThreadCpuTime() < until) {
            spin += Long.numberOfTrailingZeros(spin + System.nanoTime());
        }

        E2ePreloadCost cost = start.stop(1_000);

        assertThat(spin).isPositive();
        // 200 ms of this thread's CPU over 1,000 records is at least 200 us each, in this JVM; the process clock
        // reads in 10 ms ticks (times(2) on Linux) and truncates each reading, so it may come a tick (10 us here) short
        assertThat(cost.harnessUs()).isGreaterThan(180);
        // the "broker" here is this JVM: the process clock ticks coarser, but the spin shows in it too
        assertThat(cost.brokerUs()).isGreaterThan(0);
        assertThat(cost.machineUs()).isEqualTo(cost.harnessUs() + cost.brokerUs());
        assertThat(cost.readerUs()).isGreaterThan(200).isLessThanOrEqualTo(cost.harnessUs() + 10);
        assertThat(cost.applicationUs()).isEqualTo(cost.machineUs() - cost.readerUs());
    }

    @Test
    void withoutTheBrokersProcessIdItsShareIsUnknownNotZero() {
        E2ePreloadCost cost = E2ePreloadCost.start(0, () -> 0L).stop(10);

        assertThat(cost.harnessUs()).isNotNaN();
        assertThat(cost.brokerUs()).isNaN();
        assertThat(cost.machineUs()).isNaN();
    }

    private static E2eRun run(E2eVariant v, int round, double harnessUs, double brokerUs) {
        return run(v, round, harnessUs, 1, brokerUs);
    }

    private static E2eRun run(E2eVariant v, int round, double harnessUs, double readerUs, double brokerUs) {
        E2eRun r = new E2eRun(v, round);
        r.preloadRate = 1000;
        r.streamCpuUs = 2;
        r.live = E2eRun.Lat.of(new long[] {1_000_000});
        r.paced = E2eRun.Lat.of(new long[] {2_000_000});
        // the collector's share a tenth of the broker's, so that its ratio row reads like the broker's
        r.preloadCost = new E2ePreloadCost(harnessUs, readerUs, brokerUs, brokerUs / 10, 0.25);
        return r;
    }

    private static String report(List<E2eRun> runs) {
        E2eOptions o = E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--rounds", "2"});
        return E2eReport.markdown(o, runs, Instant.EPOCH, Instant.EPOCH.plusSeconds(60), 1, 2);
    }

    @Test
    void theReportTablesEachRunsCostAndDividesEachVariantByItsBaseOfTheSameRound() {
        List<E2eRun> runs = List.of(run(E2eVariant.JSON_BASELINE, 1, 10, 5), run(E2eVariant.JSON_FLOOR, 1, 11, 6),
                run(E2eVariant.JSON_PARSLEY, 1, 13, 9), run(E2eVariant.JSON_BASELINE, 2, 20, 10),
                run(E2eVariant.JSON_FLOOR, 2, 20, 10), run(E2eVariant.JSON_PARSLEY, 2, 30, 15));

        String md = report(runs);

        assertThat(md).contains("### Pre-loaded phase: CPU per record by process")
                .contains("| 1 | json-parsley | 1,000 | 2.0 | 1.0 | 13.0 | 0.90 | 0.25 | 9.0 | 22.0 | 21.0 | 0.00 | 0.02 |\n")
                .contains("| JSON Parsley / plain JSON: harness JVM CPU per record | 1.30 | 1.50 | **1.40** [1.30, 1.50] |\n")
                .contains("| JSON Parsley / plain JSON: broker CPU per record | 1.80 | 1.50 | **1.65** [1.50, 1.80] |\n")
                .contains("| JSON Parsley / plain JSON: GC threads' CPU per record | 1.80 | 1.50 | **1.65** [1.50, 1.80] |\n")
                .contains("| JSON floor / plain JSON: machine CPU per record | 1.13 | 1.00 | **1.07** [1.00, 1.13] |\n")
                // over the floor, not over the plain application: 22 / 17 and 45 / 30
                .contains("| JSON Parsley / JSON floor: machine CPU per record | 1.29 | 1.50 | **1.40** [1.29, 1.50] |\n")
                // only the variants that ran have rows
                .doesNotContain("Two-source / plain copy").doesNotContain("| Parsley / floor:")
                .doesNotContain("| Bare JSON floor /").doesNotContain("| JSON floor / bare JSON floor:");
    }

    @Test
    void theJsonFloorsOutputHeaderIsTheJsonFloorOverItsBareTwinOfTheSameRound() {
        List<E2eRun> runs = List.of(run(E2eVariant.JSON_BASELINE, 1, 10, 5), run(E2eVariant.JSON_FLOOR_BARE, 1, 10, 6),
                run(E2eVariant.JSON_FLOOR, 1, 12, 9), run(E2eVariant.JSON_BASELINE, 2, 20, 10),
                run(E2eVariant.JSON_FLOOR_BARE, 2, 21, 10), run(E2eVariant.JSON_FLOOR, 2, 21, 15));

        assertThat(report(runs))
                .contains("| Bare JSON floor / plain JSON: broker CPU per record | 1.20 | 1.00 | **1.10** [1.00, 1.20] |\n")
                // over the bare floor: 9 / 6 and 15 / 10
                .contains("| JSON floor / bare JSON floor: broker CPU per record | 1.50 | 1.50 | **1.50** [1.50, 1.50] |\n")
                .doesNotContain("| JSON Parsley /");
    }

    @Test
    void theCoresAreTheCpuPerSecondTheStreamThreadAndTheMachineUsedOverThePhase() {
        // 5 us of stream thread and 30 us of machine a record, at 50,000 records a second
        E2eRun r = run(E2eVariant.JSON_PARSLEY, 1, 20, 10);
        r.preloadRate = 50_000;
        r.streamCpuUs = 5;

        assertThat(E2ePreloadCost.cores(5, 50_000)).isEqualTo(0.25);
        assertThat(report(List.of(r)))
                .contains("| 1 | json-parsley | 50,000 | 5.0 | 1.0 | 20.0 | 1.00 | 0.25 | 10.0 | 30.0 | 29.0 | 0.25 | 1.50 |\n");
    }

    @Test
    void theApplicationsShareLeavesOutTheOutputReadersOnEachSide() {
        // machine 15 and 20, of which the reader read 2 and 4: 20 / 15 with the reader, 16 / 13 without
        List<E2eRun> runs = List.of(run(E2eVariant.JSON_BASELINE, 1, 10, 2, 5), run(E2eVariant.JSON_PARSLEY, 1, 14, 4, 6));

        assertThat(report(runs)).contains("| JSON Parsley / plain JSON: machine CPU per record | 1.33 | - |")
                .contains("| JSON Parsley / plain JSON: machine CPU per record without the output reader | 1.23 | - |");
    }

    @Test
    void aRoundWithoutTheMeterHasNoRatioAndARunWithoutOneNoRow() {
        List<E2eRun> runs = new java.util.ArrayList<>(List.of(run(E2eVariant.BASELINE, 1, 10, 5),
                run(E2eVariant.PARSLEY, 1, 12, 6), run(E2eVariant.BASELINE, 2, 10, 5), run(E2eVariant.PARSLEY, 2, 15, 5)));
        runs.get(3).preloadCost = null;

        String md = report(runs);

        assertThat(md).contains("| Parsley / plain: machine CPU per record | 1.20 | - | **1.20** [1.20, 1.20] |\n")
                .doesNotContain("| 2 | parsley | 1,000 | 2.0 | 1.0 |");
    }

    @Test
    void runsThatWereNotMeteredHaveNoSection() {
        E2eRun plain = run(E2eVariant.BASELINE, 1, 10, 5);
        E2eRun parsley = run(E2eVariant.PARSLEY, 1, 12, 6);
        plain.preloadCost = null;
        parsley.preloadCost = null;

        assertThat(report(List.of(plain, parsley))).doesNotContain("Pre-loaded phase: CPU per record by process");
    }
}
