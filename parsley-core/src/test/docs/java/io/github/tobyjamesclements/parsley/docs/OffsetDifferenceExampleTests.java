package io.github.tobyjamesclements.parsley.docs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The hand-written difference of docs/wire-format.md gives the table beside it, and reads each
 * offset back. {@code ClockLayoutOffsetDeltaTests} holds the codec to the same definition.
 */
class OffsetDifferenceExampleTests {

    @ParameterizedTest(name = "{0} -> {1}: z = {2}")
    @CsvSource({
        "12500, 12490, 19",
        "12490, 12513, 46",
        "1250000, 1249870, 259",
        "0, 9223372036854775807, 1",
        "9223372036854775807, 0, 2",
        "0, 4611686018427387904, 9223372036854775807",
    })
    void theSnippetGivesTheTableAndReadsTheOffsetBack(long previous, long offset, long z) {
        long[] zigzagAndBack = OffsetDifferenceExample.zigzagAndBack(previous, offset);

        assertThat(zigzagAndBack[0]).isEqualTo(z);
        assertThat(zigzagAndBack[1]).isEqualTo(offset);
    }
}
