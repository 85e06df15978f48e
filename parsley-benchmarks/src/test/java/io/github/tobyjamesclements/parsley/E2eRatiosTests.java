package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class E2eRatiosTests {

    private static E2eRun run(E2eVariant v, int round, double rate) {
        E2eRun r = new E2eRun(v, round);
        r.preloadRate = rate;
        return r;
    }

    private static String row(List<E2eRun> runs, List<Integer> rounds, E2eVariant v) {
        StringBuilder s = new StringBuilder();
        new E2eRatios(s, runs, rounds).row("x", v, r -> r.preloadRate);
        return s.toString().trim();
    }

    @Test
    void eachRoundIsDividedByItsOwnBaselineOfTheSameRound() {
        List<E2eRun> runs = List.of(run(E2eVariant.JSON_BASELINE, 1, 100), run(E2eVariant.JSON_PARSLEY, 1, 90),
                run(E2eVariant.JSON_BASELINE, 2, 200), run(E2eVariant.JSON_PARSLEY, 2, 100),
                run(E2eVariant.BASELINE, 1, 1000), run(E2eVariant.JSON_BASELINE, 3, 100),
                run(E2eVariant.JSON_PARSLEY, 3, 70));

        assertThat(row(runs, List.of(1, 2, 3), E2eVariant.JSON_PARSLEY))
                .isEqualTo("| x | 0.90 | 0.50 | 0.70 | **0.70** [0.50, 0.90] |");
    }

    @Test
    void aRoundWhereEitherSideFailedShowsADashAndDoesNotCount() {
        E2eRun failed = run(E2eVariant.BASELINE, 2, 100);
        failed.error = "timed out";
        List<E2eRun> runs = List.of(run(E2eVariant.BASELINE, 1, 100), run(E2eVariant.PARSLEY, 1, 60), failed,
                run(E2eVariant.PARSLEY, 2, 99));

        assertThat(row(runs, List.of(1, 2), E2eVariant.PARSLEY)).isEqualTo("| x | 0.60 | - | **0.60** [0.60, 0.60] |");
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertThat(E2eRatios.median(4, 1, 3, 2)).isEqualTo(2.5);
        assertThat(E2eRatios.summary(List.of(0.9, 0.5, 0.7, 0.6))).isEqualTo("**0.65** [0.50, 0.90]");
        assertThat(E2eRatios.summary(List.of())).isEqualTo("-");
    }

    @Test
    void theHeadHasOneColumnPerRound() {
        StringBuilder s = new StringBuilder();
        new E2eRatios(s, List.of(), List.of(1, 2, 3)).head();

        assertThat(s.toString()).isEqualTo("| Measure | Round 1 | Round 2 | Round 3 | Median [min, max] |\n"
                + "|---|---:|---:|---:|---:|\n");
    }
}
