package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The offset differences of a topic group (docs/wire-format.md, "The stamp layout"): a watermark
 * after a group's first is written as the zigzag of its difference from the one before, in 63 bits.
 * The mapping must be a bijection between watermarks and 63-bit values for each previous watermark,
 * or a stamp would gain a second encoding or a value without a reading; and a small step either way
 * must stay a small varint, or the bytes it exists to save are not saved.
 */
class ClockLayoutOffsetDeltaTests {

    private static final long[] EDGES = {0, 1, 2, 63, 64, 127, 128, 8191, 8192, 16383, 16384, (1L << 62) - 1, 1L << 62,
        (1L << 62) + 1, Long.MAX_VALUE - 1, Long.MAX_VALUE};

    @Test
    void smallStepsEitherWayTakeOneOrTwoBytes() {
        long base = 1_000_000_000_000L;
        assertThat(ClockLayout.offsetDelta(base, base)).isZero();
        assertThat(ClockLayout.offsetDelta(base, base - 1)).isEqualTo(1);
        assertThat(ClockLayout.offsetDelta(base, base + 1)).isEqualTo(2);
        assertThat(ClockLayout.offsetDelta(base, base - 64)).isEqualTo(127);
        assertThat(ClockLayout.varintSize(ClockLayout.offsetDelta(base, base + 63))).isEqualTo(1);
        assertThat(ClockLayout.varintSize(ClockLayout.offsetDelta(base, base + 64))).isEqualTo(2);
        assertThat(ClockLayout.varintSize(ClockLayout.offsetDelta(base, base - 8192))).isEqualTo(2);
        assertThat(ClockLayout.varintSize(ClockLayout.offsetDelta(base, base + 8192))).isEqualTo(3);
    }

    @Test
    void theEdgesOfSixtyThreeBitsWrapToTheNearestDifference() {
        assertThat(ClockLayout.offsetDelta(0, Long.MAX_VALUE)).isEqualTo(1);
        assertThat(ClockLayout.offsetDelta(Long.MAX_VALUE, 0)).isEqualTo(2);
        assertThat(ClockLayout.offsetDelta(0, 1L << 62)).isEqualTo(Long.MAX_VALUE);
        assertThat(ClockLayout.offsetDelta(0, (1L << 62) - 1)).isEqualTo(Long.MAX_VALUE - 1);
        assertThat(ClockLayout.offsetAfter(Long.MAX_VALUE, 2)).isZero();
        assertThat(ClockLayout.offsetAfter(0, 1)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void everyPairOfEdgesRoundTripsThroughANonNegativeValue() {
        for (long previous : EDGES) {
            for (long offset : EDGES) {
                long delta = ClockLayout.offsetDelta(previous, offset);
                assertThat(delta).as("delta %d -> %d", previous, offset)
                        .isEqualTo(ClockCodecFuzzTests.zigzag63(previous, offset)).isNotNegative();
                assertThat(ClockLayout.offsetAfter(previous, delta)).as("%d -> %d", previous, offset).isEqualTo(offset);
            }
        }
    }

    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void watermarksAndDifferencesMapOneToOne(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 1_000; i++) {
            long previous = watermark(random);
            long offset = random.nextBoolean() ? watermark(random) : near(previous, random);
            long delta = ClockLayout.offsetDelta(previous, offset);
            assertThat(delta).as("seed %d: %d -> %d", seed, previous, offset)
                    .isEqualTo(ClockCodecFuzzTests.zigzag63(previous, offset));
            assertThat(ClockLayout.offsetAfter(previous, delta)).as("seed %d: %d -> %d", seed, previous, offset)
                    .isEqualTo(offset);
            long anyValue = random.nextLong(Long.MAX_VALUE) + (random.nextBoolean() ? 1 : 0);
            long named = ClockLayout.offsetAfter(previous, anyValue);
            assertThat(named).as("seed %d: value %d after %d", seed, anyValue, previous).isNotNegative();
            assertThat(ClockLayout.offsetDelta(previous, named)).as("seed %d: value %d after %d", seed, anyValue, previous)
                    .isEqualTo(anyValue);
            // docs/wire-format.md: a difference costs at most one byte over the larger watermark
            assertThat(ClockLayout.varintSize(delta)).as("seed %d: size of %d -> %d", seed, previous, offset)
                    .isLessThanOrEqualTo(ClockLayout.varintSize(Math.max(previous, offset)) + 1);
        }
    }

    static LongStream seeds() {
        return LongStream.range(0, 20);
    }

    private static long watermark(SplittableRandom random) {
        return random.nextInt(4) == 0 ? EDGES[random.nextInt(EDGES.length)] : random.nextLong(Long.MAX_VALUE) + 1;
    }

    private static long near(long previous, SplittableRandom random) {
        long step = random.nextLong(-20_000, 20_000);
        long offset = previous + step;
        return offset < 0 ? 0 : offset;
    }
}
