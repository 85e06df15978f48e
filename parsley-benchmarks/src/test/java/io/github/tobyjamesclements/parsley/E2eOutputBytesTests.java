package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class E2eOutputBytesTests {

    private static E2eRun run(E2eVariant v, int round, double bytes, String error) {
        E2eRun r = new E2eRun(v, round);
        r.outputBytesPerRecord = bytes;
        r.error = error;
        return r;
    }

    @Test
    void eachVariantIsComparedWithItsOwnPlainVariantOfTheSameRound() {
        List<E2eRun> runs = List.of(run(E2eVariant.BASELINE, 1, 150, null), run(E2eVariant.PARSLEY, 1, 190, null),
                run(E2eVariant.BASELINE, 2, 160, null), run(E2eVariant.PARSLEY, 2, 196, null),
                run(E2eVariant.JSON_BASELINE, 1, 300, null), run(E2eVariant.JSON_PARSLEY, 1, 370, null),
                // a failed run and an unsized one count for nothing, nor pair with anything
                run(E2eVariant.BASELINE, 3, 1, "boom"), run(E2eVariant.PARSLEY, 3, 999, null),
                run(E2eVariant.FLOOR, 1, Double.NaN, null));
        StringBuilder s = new StringBuilder();

        E2eOutputBytes.table(s, runs);

        assertThat(s.toString()).contains("| baseline | 155.0 [150.0, 160.0] |  |")
                .contains("| parsley | 196.0 [190.0, 999.0] | 38.0 [36.0, 40.0] |")
                .contains("| json-parsley | 370.0 [370.0, 370.0] | 70.0 [70.0, 70.0] |")
                .doesNotContain("| floor |");
    }

    @Test
    void noTableWhenNoRunSizedItsOutput() {
        StringBuilder s = new StringBuilder();

        E2eOutputBytes.table(s, List.of(run(E2eVariant.BASELINE, 1, Double.NaN, null)));

        assertThat(s.toString()).isEmpty();
    }
}
