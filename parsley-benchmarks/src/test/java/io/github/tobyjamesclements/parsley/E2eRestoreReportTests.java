package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class E2eRestoreReportTests {

    private static E2eRestore.Result result(E2eVariant v, int size, int round, double firstMs, String error) {
        return new E2eRestore.Result(v, size, round, size, size * 100L, firstMs / 2, firstMs, firstMs * 2, firstMs / 4,
                firstMs / 10, 0, 0, error);
    }

    @Test
    void ratiosPairParsleyWithPlainOfTheSameSizeAndRound() {
        List<E2eRestore.Result> results = List.of(result(E2eVariant.BASELINE, 10, 1, 100, null),
                result(E2eVariant.PARSLEY, 10, 1, 300, null), result(E2eVariant.BASELINE, 20, 1, 1000, null),
                result(E2eVariant.PARSLEY, 20, 1, 1500, null), result(E2eVariant.BASELINE, 10, 2, 200, null),
                result(E2eVariant.PARSLEY, 10, 2, 200, "boom"));
        StringBuilder s = new StringBuilder();

        E2eRestoreReport.ratioRow(s, results, 10, 2, "first", E2eRestore.Result::firstMs);
        E2eRestoreReport.ratioRow(s, results, 20, 2, "first", E2eRestore.Result::firstMs);

        assertThat(s.toString().lines()).containsExactly("| 10 | first | 3.00 / - | **3.00** [3.00, 3.00] |",
                "| 20 | first | 1.50 / - | **1.50** [1.50, 1.50] |");
    }

    @Test
    void theReportListsFailedRunsWithTheirErrorAndEveryMeasuredRun() {
        E2eOptions o = E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--restore", "10", "--rounds", "1"});
        List<E2eRestore.Result> results = List.of(result(E2eVariant.BASELINE, 10, 1, 100, null),
                result(E2eVariant.PARSLEY, 10, 1, 250, "Timed out | waiting"));

        String md = E2eRestoreReport.markdown(o, results, "");

        assertThat(md).contains("| 10 | 1 | plain | 10 | 0.0 | 50 | 100 | 200 | 25 | 10 | 0 / 0 |")
                .contains("| 10 | 1 | parsley | failed: Timed out / waiting |")
                .contains("| 10 | Start to first output | - | - |")
                .contains("| 10 | State-updater CPU (the restore's reads) | - | - |")
                .doesNotContain("| 10 | Stream-thread CPU");
    }
}
