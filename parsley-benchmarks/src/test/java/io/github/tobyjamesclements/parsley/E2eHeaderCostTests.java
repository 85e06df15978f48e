package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class E2eHeaderCostTests {

    @Test
    void aStampKeepsThePatternAndEndsInTheSequenceNumberWithoutTouchingThePattern() {
        byte[] pattern = {9, 9, 9, 9, 9, 9};

        assertThat(E2eHeaderCost.stamp(pattern, 0x01020304)).containsExactly(9, 9, 1, 2, 3, 4);
        assertThat(E2eHeaderCost.stamp(new byte[] {9, 9}, 0x01020304)).as("a shorter value keeps the low bytes")
                .containsExactly(3, 4);
        assertThat(pattern).as("each record gets its own array").containsExactly(9, 9, 9, 9, 9, 9);
    }
}
