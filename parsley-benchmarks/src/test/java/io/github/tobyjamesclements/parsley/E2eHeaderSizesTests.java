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

    @Test
    void theP99IsTheNearestRankOfTheLengthsAndPoolingCountsAsOneReaderWould() {
        E2eHeaderSizes a = new E2eHeaderSizes();
        for (int i = 0; i < 99; i++) {
            a.count(new byte[10]);
        }
        a.count(new byte[5000]);
        E2eHeaderSizes b = new E2eHeaderSizes();
        for (int i = 0; i < 100; i++) {
            b.count(new byte[20]);
        }

        assertThat(a.valuePercentile(0.99)).isEqualTo(10);
        assertThat(a.valuePercentile(1.0)).isEqualTo(5000);
        assertThat(new E2eHeaderSizes().valuePercentile(0.99)).as("none counted").isZero();

        E2eHeaderSizes pooled = E2eHeaderSizes.pool(java.util.List.of(a, b));
        assertThat(pooled.records).isEqualTo(200);
        assertThat(pooled.valuePercentile(0.49)).as("rank 98 of 99 tens, 100 twenties and one 5000").isEqualTo(10);
        assertThat(pooled.valuePercentile(0.5)).isEqualTo(20);
        assertThat(pooled.valuePercentile(0.99)).isEqualTo(20);
        assertThat(pooled.valuePercentile(0.999)).isEqualTo(5000);
    }
}
