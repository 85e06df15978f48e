package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class E2eHeaderSizesTests {

    @Test
    void lengthsCountEveryStampAndEntriesASampleDecodedOnlyWhenAsked() {
        E2eHeaderSizes sizes = new E2eHeaderSizes();
        int n = 3 * E2eHeaderSizes.SAMPLE_EVERY + 1;
        for (int i = 0; i < n; i++) {
            byte[] stamp = i % 2 == 0 ? E2eJson.FLOOR_STAMP : E2eFloorProcessor.STAMP;
            sizes.count(stamp);
            sizes.clockSum += stamp.length;
        }

        assertThat(sizes.records).isEqualTo(n);
        assertThat(sizes.decoded).as("nothing is decoded while the run is measured").isZero();

        sizes.decodePending();

        // Records 0, 16, 32 and 48 are sampled: all even, so all are the JSON floor's stamp.
        assertThat(sizes.decoded).isEqualTo(4);
        assertThat(sizes.offsetEntriesMean()).isEqualTo(5.0);
        assertThat(sizes.offsetTopicsMean()).isEqualTo(2.0);
        assertThat(sizes.clockMean()).isEqualTo(
                (25.0 * E2eJson.FLOOR_STAMP_BYTES + 24.0 * E2eFloorProcessor.STAMP_BYTES) / n);
        assertThat(sizes.decodePending().decoded).as("a second call decodes nothing twice").isEqualTo(4);
    }
}
