package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class E2eHeaderCostReportTests {

    private static E2eHeaderCost.Result result(int size, int round, double brokerUs) {
        return new E2eHeaderCost.Result(size, round, 1000.0 / brokerUs, 0.5, 0.25, 1.0, brokerUs, brokerUs * 2, 1.5);
    }

    @Test
    void eachSizeIsDividedByTheFirstListedSizeOfTheSameRound() {
        E2eOptions o = E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--header-cost", "2,0,30", "--rounds",
            "2"});
        // round 2 of the first size is missing: its cells must say so, not pair with another round's
        List<E2eHeaderCost.Result> results = List.of(result(2, 1, 2.0), result(0, 1, 1.0), result(30, 1, 3.0),
                result(0, 2, 4.0), result(30, 2, 5.0));

        String md = E2eHeaderCostReport.markdown(o, results, "");

        assertThat(md).contains("### Over 2-byte headers, same round")
                .contains("| 0 | broker CPU per record | 0.50 / - | **0.50** [0.50, 0.50] |")
                .contains("| 30 | broker CPU per record | 1.50 / - | **1.50** [1.50, 1.50] |")
                .contains("| 30 | rate | 0.67 / - | **0.67** [0.67, 0.67] |")
                .contains("| 30 | machine CPU per record (harness JVM + broker) | 1.33 / - |")
                .doesNotContain("| 2 | broker CPU per record");
    }

    @Test
    void everyPhaseIsListedAndEachSizeGetsItsMedians() {
        E2eOptions o = E2eOptions.parse(new String[] {"--bootstrap", "h:1", "--header-cost", "0,58", "--rounds",
            "3"});
        List<E2eHeaderCost.Result> results = List.of(result(0, 1, 1.0), result(58, 1, 2.0), result(0, 2, 3.0),
                result(58, 2, 4.0), result(0, 3, 2.0), result(58, 3, 9.0));

        String md = E2eHeaderCostReport.markdown(o, results, "");

        assertThat(md).contains("`vc` headers of [0, 58] bytes (0: none), 3 round(s)")
                .contains("| 2 | 58 | 250 | 0.500 | 0.250 | 1.000 | 4.000 | 5.000 | 8.00 | 1.50 |")
                .contains("| 0 | 500 | 0.500 | 0.250 | 1.000 | 2.000 | 3.000 | 4.00 | 1.50 |")
                .contains("| 58 | 250 | 0.500 | 0.250 | 1.000 | 4.000 | 5.000 | 8.00 | 1.50 |")
                .contains("| 58 | producer requests per record | 2.00 / 1.33 / 4.50 |")
                .contains("| 58 | broker CPU per record | 2.00 / 1.33 / 4.50 | **2.00** [1.33, 4.50] |");
    }

    @Test
    void quartilesAreTheMediansOfEachHalf() {
        assertThat(E2eHeaderCostReport.quartiles(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo("**2.50** [1.50, 3.50]");
        assertThat(E2eHeaderCostReport.quartiles(List.of(5.0, 1.0, 3.0, 2.0, 4.0)))
                .as("odd count: the middle value belongs to neither half").isEqualTo("**3.00** [1.50, 4.50]");
        assertThat(E2eHeaderCostReport.quartiles(List.of(7.0))).isEqualTo("**7.00** [7.00, 7.00]");
        assertThat(E2eHeaderCostReport.quartiles(List.of())).isEqualTo("-");
    }
}
