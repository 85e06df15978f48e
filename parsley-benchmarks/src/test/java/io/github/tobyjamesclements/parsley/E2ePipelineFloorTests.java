package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class E2ePipelineFloorTests {

    @Test
    void theTargetsAreParsleysMeasuredMeansAtFourSixteenAndSixtyFourAndLinearBetween() {
        assertThat(new int[] {E2ePipelineFloor.targetBytes(1, 4), E2ePipelineFloor.targetBytes(1, 64),
            E2ePipelineFloor.targetBytes(2, 4), E2ePipelineFloor.targetBytes(2, 16), E2ePipelineFloor.targetBytes(2, 64),
            E2ePipelineFloor.targetBytes(3, 4), E2ePipelineFloor.targetBytes(3, 16), E2ePipelineFloor.targetBytes(3, 64)})
                .containsExactly(61, 61, 120, 165, 370, 180, 255, 680);
        assertThat(E2ePipelineFloor.targetBytes(2, 10)).as("halfway from 4 to 16").isEqualTo(143);
        assertThat(E2ePipelineFloor.targetBytes(3, 40)).as("halfway from 16 to 64").isEqualTo(468);
        assertThat(E2ePipelineFloor.targetBytes(3, 128)).as("the last segment extended").isEqualTo(1247);
    }

    @Test
    void everyStampDecodesTaggedAndIsWithinTheToleranceOfItsTarget() {
        for (int hop = 1; hop <= E2ePipeline.MAX_HOPS; hop++) {
            for (int p = 1; p <= 128; p++) {
                byte[] stamp = E2ePipelineFloor.stamp(hop, p);
                SendStamp decoded = ClockCodec.decodeStamp(stamp);

                assertThat(stamp.length - E2ePipelineFloor.targetBytes(hop, p)).as("hop %d, P=%d", hop, p)
                        .isBetween(0, E2ePipelineFloor.TOLERANCE);
                assertThat(decoded.sender()).isNotNull();
                assertThat(decoded.clock().seqCount()).isZero();
            }
        }
    }
}
