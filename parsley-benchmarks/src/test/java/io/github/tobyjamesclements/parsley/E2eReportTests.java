package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class E2eReportTests {

    private static E2eRun run(E2eVariant v, int round, double rate, double cpuUs, double allocated) {
        E2eRun r = new E2eRun(v, round);
        r.preloadRate = rate;
        r.streamCpuUs = cpuUs;
        r.allocatedBytes = allocated;
        r.live = E2eRun.Lat.of(new long[] {1_000_000});
        r.paced = E2eRun.Lat.of(new long[] {2_000_000});
        return r;
    }

    private static String report(List<E2eRun> runs) {
        E2eOptions o = E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--rounds", "2"});
        return E2eReport.markdown(o, runs, Instant.EPOCH, Instant.EPOCH.plusSeconds(60), 1, 2);
    }

    private static List<E2eRun> copies() {
        List<E2eRun> runs = new ArrayList<>();
        runs.add(run(E2eVariant.BASELINE, 1, 1000, 10, 4000));
        runs.add(run(E2eVariant.FLOOR, 1, 800, 12, 5000));
        runs.add(run(E2eVariant.PARSLEY, 1, 400, 24, 10_000));
        runs.add(run(E2eVariant.BASELINE, 2, 2000, 20, 4000));
        runs.add(run(E2eVariant.FLOOR, 2, 1000, 30, 6000));
        runs.add(run(E2eVariant.PARSLEY, 2, 900, 45, 9000));
        return runs;
    }

    @Test
    void theSetupSaysWhetherEveryApplicationRanWithAGivenTaskIdleOrItsOwnDefault() {
        StringBuilder given = new StringBuilder();
        E2eReport.setup(given, E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--task-idle-ms", "-1"}),
                Instant.EPOCH, Instant.EPOCH, 1, 1);
        StringBuilder defaults = new StringBuilder();
        E2eReport.setup(defaults, E2eOptions.parse(new String[] {"--bootstrap", "h:1"}), Instant.EPOCH, Instant.EPOCH,
                1, 1);

        assertThat(given.toString()).contains("max.task.idle.ms=-1 in every application");
        assertThat(defaults.toString()).contains("max.task.idle.ms at each application's default");
    }

    @Test
    void theFloorIsDividedByThePlainCopyAndParsleyByTheFloorOfTheSameRound() {
        String md = report(copies());

        assertThat(md).contains("### Floor: plain Streams copy with a " + E2eFloorProcessor.STAMP_BYTES + "-byte `vc` header")
                .contains("| Floor / baseline: pre-loaded throughput | 0.80 | 0.50 | **0.65** [0.50, 0.80] |\n")
                .contains("| Floor / baseline: stream-thread CPU per record (pre-loaded) | 1.20 | 1.50"
                        + " | **1.35** [1.20, 1.50] |\n")
                .contains("| Floor / baseline: stream-thread allocation per record (pre-loaded) | 1.25 | 1.50"
                        + " | **1.38** [1.25, 1.50] |\n")
                .contains("| Parsley / floor: pre-loaded throughput | 0.50 | 0.90 | **0.70** [0.50, 0.90] |\n")
                .contains("| Parsley / floor: stream-thread CPU per record (pre-loaded) | 2.00 | 1.50"
                        + " | **1.75** [1.50, 2.00] |\n")
                .contains("| Parsley / floor: stream-thread allocation per record (pre-loaded) | 2.00 | 1.50"
                        + " | **1.75** [1.50, 2.00] |\n");
        // The existing Parsley / plain Streams rows still divide by the plain copy, not by the floor.
        assertThat(md).contains("| Stream-thread CPU per record (pre-loaded) | 2.40 | 2.25 | **2.33** [2.25, 2.40] |\n");
    }

    @Test
    void theLiveCostIsTabledPerRunAndDividedByThePlainCopysOfTheSameRound() {
        List<E2eRun> runs = copies();
        runs.get(0).liveCost = new E2eLiveCost(110_000, 2.5, 2, 10, 6, 20, 300, 10);
        runs.get(2).liveCost = new E2eLiveCost(0, 0, 3, 12, 8, 30, 400, 12);
        runs.get(3).liveCost = new E2eLiveCost(0, 0, 2, 8, 4, 20, 300, 10);
        runs.get(5).liveCost = new E2eLiveCost(0, 0, 2, 9, 6, 40, 600, 10);
        runs.get(0).liveRate = 100_000;

        String md = report(runs);

        // machine cores: 16 us a record at 100,000 records a second
        assertThat(md)
                .contains("| 1 | baseline | 100,000 | 110,000 | 2.50 | 2.0 | 10.0 | 6.0 | 16.0 | 20.0 | 300.0 | 10.0 | 1.60 |\n")
                .contains("| 1 | parsley | 0 | 0 | 0.00 | 3.0 | 12.0 | 8.0 | 20.0 | 30.0 | 400.0 | 12.0 | 0.00 |\n")
                .contains("| Parsley live: the application's fetches per record | 1.50 | 2.00 | **1.75** [1.50, 2.00] |\n")
                .contains("| Parsley live: the stream threads' polls per record | 1.33 | 2.00 | **1.67** [1.33, 2.00] |\n")
                .contains("| Parsley live: broker CPU per record | 1.33 | 1.50 | **1.42** [1.33, 1.50] |\n")
                .contains("| Parsley live: machine CPU per record (harness JVM + broker) | 1.25 | 1.25"
                        + " | **1.25** [1.25, 1.25] |\n")
                // the floor ran without a live cost here: its rows have no ratio, not a wrong one
                .contains("| Floor / baseline: live: machine CPU per record (harness JVM + broker) | - | -"
                        + " | - |\n");
    }

    @Test
    void aFailedFloorRoundIsLeftOutOfBothItsRowsAndParsleysRowsOverTheFloor() {
        List<E2eRun> runs = copies();
        runs.get(4).error = "timed out";

        assertThat(report(runs))
                .contains("| Floor / baseline: stream-thread CPU per record (pre-loaded) | 1.20 | -"
                        + " | **1.20** [1.20, 1.20] |\n")
                .contains("| Parsley / floor: stream-thread CPU per record (pre-loaded) | 2.00 | -"
                        + " | **2.00** [2.00, 2.00] |\n");
    }

    @Test
    void withoutParsleyTheFloorSectionHasOnlyItsRowsOverThePlainCopy() {
        List<E2eRun> runs = copies().stream().filter(r -> r.variant != E2eVariant.PARSLEY).toList();

        String md = report(runs);

        assertThat(md).contains("| Floor / baseline: pre-loaded throughput |").doesNotContain("Parsley / floor");
    }

    @Test
    void withoutTheFloorThereIsNoFloorSection() {
        List<E2eRun> runs = copies().stream().filter(r -> r.variant != E2eVariant.FLOOR).toList();

        assertThat(report(runs)).doesNotContain("Floor").doesNotContain("floor");
    }

    @Test
    void theJsonFloorIsDividedByThePlainJsonRunAndParsleyByTheJsonFloorOfTheSameRound() {
        List<E2eRun> runs = List.of(run(E2eVariant.JSON_BASELINE, 1, 1000, 10, 4000),
                run(E2eVariant.JSON_FLOOR, 1, 900, 11, 4400), run(E2eVariant.JSON_PARSLEY, 1, 720, 13.2, 5000),
                run(E2eVariant.JSON_BASELINE, 2, 2000, 20, 4000), run(E2eVariant.JSON_FLOOR, 2, 1600, 24, 4400),
                run(E2eVariant.JSON_PARSLEY, 2, 1200, 36, 5000));

        assertThat(report(runs)).contains("| Pre-loaded throughput | 0.72 | 0.60 | **0.66** [0.60, 0.72] |\n")
                .contains("| JSON floor / plain: pre-loaded throughput | 0.90 | 0.80 | **0.85** [0.80, 0.90] |\n")
                .contains("| JSON floor / plain: stream-thread CPU per record (pre-loaded) | 1.10 | 1.20"
                        + " | **1.15** [1.10, 1.20] |\n")
                .contains("| Parsley / JSON floor: pre-loaded throughput | 0.80 | 0.75 | **0.78** [0.75, 0.80] |\n")
                .contains("| Parsley / JSON floor: stream-thread CPU per record (pre-loaded) | 1.20 | 1.50"
                        + " | **1.35** [1.20, 1.50] |\n");
    }

    @Test
    void theBareJsonFloorIsDividedByThePlainJsonRunAndTheJsonFloorByTheBareOneEvenWithoutParsley() {
        List<E2eRun> runs = List.of(run(E2eVariant.JSON_BASELINE, 1, 1000, 10, 4000),
                run(E2eVariant.JSON_FLOOR_BARE, 1, 990, 10.5, 4100), run(E2eVariant.JSON_FLOOR, 1, 891, 12.6, 4400),
                run(E2eVariant.JSON_BASELINE, 2, 2000, 20, 4000), run(E2eVariant.JSON_FLOOR_BARE, 2, 1800, 20, 4100),
                run(E2eVariant.JSON_FLOOR, 2, 1440, 26, 4400));

        assertThat(report(runs)).contains("| Bare JSON floor / plain: pre-loaded throughput | 0.99 | 0.90"
                        + " | **0.95** [0.90, 0.99] |\n")
                .contains("| Bare JSON floor / plain: stream-thread CPU per record (pre-loaded) | 1.05 | 1.00")
                // the header's own cost: over the bare floor, not over the plain application
                .contains("| JSON floor / bare JSON floor: pre-loaded throughput | 0.90 | 0.80"
                        + " | **0.85** [0.80, 0.90] |\n")
                .contains("| JSON floor / bare JSON floor: stream-thread CPU per record (pre-loaded) | 1.20 | 1.30")
                .doesNotContain("| Pre-loaded throughput |").doesNotContain("Parsley / JSON floor");
    }

    @Test
    void theBareJsonFloorAloneBesideThePlainJsonRunStillGetsItsSection() {
        List<E2eRun> runs = List.of(run(E2eVariant.JSON_BASELINE, 1, 1000, 10, 4000),
                run(E2eVariant.JSON_FLOOR_BARE, 1, 990, 10.5, 4100));

        assertThat(report(runs)).contains("| Bare JSON floor / plain: pre-loaded throughput | 0.99 |")
                .doesNotContain("| JSON floor / bare JSON floor:");
    }

    @Test
    void withoutTheJsonFloorTheJsonSectionHasNoFloorRows() {
        List<E2eRun> runs = List.of(run(E2eVariant.JSON_BASELINE, 1, 1000, 10, 4000),
                run(E2eVariant.JSON_PARSLEY, 1, 720, 13.2, 5000));

        assertThat(report(runs)).contains("| Pre-loaded throughput | 0.72 |").doesNotContain("JSON floor /")
                .doesNotContain("Parsley / JSON floor").doesNotContain("Bare JSON floor");
    }

    @Test
    void sideBySideReportsEachVariantOverThePlainCopyOfTheSameRoundAndAFailedRunAsFailed() {
        List<E2eRun> runs = copies();
        runs.get(4).error = "timed out";

        String md = E2eReport.sideBySide(E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--rounds", "2"}), runs,
                Instant.EPOCH, Instant.EPOCH.plusSeconds(60), 1, 2);

        assertThat(md).contains("ran at the same time")
                .contains("| 2 | floor | FAILED: timed out |")
                .contains("| parsley: stream-thread CPU per record | 2.40 | 2.25 | **2.33** [2.25, 2.40] |\n")
                .contains("| floor: pre-loaded throughput | 0.80 | - | **0.80** [0.80, 0.80] |\n")
                .contains("| parsley / floor: stream-thread CPU per record | 2.00 | - | **2.00** [2.00, 2.00] |\n")
                .doesNotContain("Live throughput");
    }
}
