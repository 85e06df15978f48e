package io.github.tobyjamesclements.parsley;

import java.util.SplittableRandom;
import java.util.UUID;

/**
 * Deterministic clocks of the shapes the benchmarks and the header-bytes report measure: a number
 * of topics times a number of partitions, each partition one offset claim.
 */
final class ClockShapes {

    /** The shapes measured, as {@code <topics>x<partitions>}. */
    static final String[] SHAPES = {"1x1", "1x8", "1x64", "4x16"};

    private static final long SEED = 0x5EED_C10CL;

    private ClockShapes() {
    }

    /** How large the offset watermarks are. */
    enum Offsets {
        /** Log-uniform in [1e6, 1e9]: a topic that has been written for a while (3-5 byte varints). */
        REALISTIC,
        /** Below 128: a young topic (1-byte varints). */
        SMALL,
        /**
         * {@code Long.MAX_VALUE} and {@code 2^62 - 1} in turn: the largest first offset and, after it,
         * differences of {@code -2^62} (zigzag {@code 2^63 - 1}), so every offset of a group takes 9
         * bytes, Parsley's worst case.
         */
        MAX
    }

    static VectorClock clock(String shape, Offsets offsets) {
        int x = shape.indexOf('x');
        return clock(Integer.parseInt(shape.substring(0, x)), Integer.parseInt(shape.substring(x + 1)), offsets);
    }

    static VectorClock clock(int topics, int partitions, Offsets offsets) {
        SplittableRandom random = new SplittableRandom(SEED);
        VectorClock clock = new VectorClock();
        for (int t = 0; t < topics; t++) {
            UUID topic = new UUID(random.nextLong(), random.nextLong());
            for (int p = 0; p < partitions; p++) {
                clock.advanceTo(new Channel(topic, p), offset(random, offsets, p));
            }
        }
        return clock;
    }

    /** Adds {@code senders} sequence claims on one more channel, each with a small sequence number. */
    static VectorClock withSeqClaims(VectorClock clock, int senders) {
        SplittableRandom random = new SplittableRandom(SEED + 1);
        Channel c = new Channel(new UUID(random.nextLong(), random.nextLong()), 0);
        for (int s = 0; s < senders; s++) {
            clock.advanceSeq(new SeqKey(c, new UUID(random.nextLong(), random.nextInt(64))), random.nextInt(100_000));
        }
        return clock;
    }

    private static long offset(SplittableRandom random, Offsets offsets, int i) {
        switch (offsets) {
            case REALISTIC:
                return (long) Math.pow(10, 6 + 3 * random.nextDouble());
            case SMALL:
                return random.nextInt(128);
            default:
                return i % 2 == 0 ? Long.MAX_VALUE : (1L << 62) - 1;
        }
    }
}
