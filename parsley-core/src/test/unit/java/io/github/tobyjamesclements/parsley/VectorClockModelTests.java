package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The clock's non-boxing merges against a plain {@code TreeMap} model over seeded random
 * operations: the claims after every step, and whether {@link VectorClock#raiseTo} reported a rise
 * exactly when a claim rose. Replay a failure with {@code -Dparsley.clock.seed=<n>}.
 */
class VectorClockModelTests {

    private static final long SEED = Long.getLong("parsley.clock.seed", System.nanoTime());
    private static final UUID[] TOPICS = {new UUID(-5, 1), new UUID(0, 2), new UUID(7, 3)};
    private static final UUID[] SENDERS = {new UUID(1, 0), new UUID(1, 1), new UUID(-2, 0)};

    @BeforeAll
    static void printSeed() {
        System.out.println("seed=" + SEED + " (replay with -Dparsley.clock.seed=" + SEED + ")");
    }

    @Test
    void mergesMatchAPointwiseMaxModel() {
        SplittableRandom random = new SplittableRandom(SEED);
        VectorClock clock = new VectorClock();
        Map<Channel, Long> offsets = new TreeMap<>();
        Map<SeqKey, Long> seqs = new TreeMap<>();
        int rises = 0;
        for (int step = 0; step < 5_000; step++) {
            String at = "seed=" + SEED + " step=" + step;
            VectorClock other = randomClock(random);
            switch (random.nextInt(3)) {
                case 0 -> {
                    boolean expected = raise(offsets, other.offsets()) | raise(seqs, other.seqs());
                    assertThat(clock.raiseTo(other)).as(at + " raiseTo's answer").isEqualTo(expected);
                    rises += expected ? 1 : 0;
                }
                case 1 -> {
                    raise(offsets, other.offsets());
                    clock.mergeOffsets(other);
                }
                default -> {
                    raise(offsets, other.offsets());
                    raise(seqs, other.seqs());
                    other.offsets().forEach(clock::advanceTo);
                    other.seqs().forEach(clock::advanceSeq);
                }
            }
            assertThat(clock.offsets()).as(at + " offsets").isEqualTo(offsets);
            assertThat(clock.seqs()).as(at + " seqs").isEqualTo(seqs);
        }
        assertThat(rises).as("seed=" + SEED + ": both answers of raiseTo were exercised").isBetween(1, 4_999);
        assertThat(clock.raiseTo(clock)).as("a clock merged into itself does not rise").isFalse();
    }

    private static <K> boolean raise(Map<K, Long> model, Map<K, Long> from) {
        boolean rose = false;
        for (Map.Entry<K, Long> e : from.entrySet()) {
            Long old = model.get(e.getKey());
            if (old == null || old < e.getValue()) {
                model.put(e.getKey(), e.getValue());
                rose = true;
            }
        }
        return rose;
    }

    /** A few claims on a small key space with values around the byte-box cache edge, so rises and ties both come. */
    private static VectorClock randomClock(SplittableRandom random) {
        VectorClock c = new VectorClock();
        for (int i = random.nextInt(4); i > 0; i--) {
            Channel ch = new Channel(TOPICS[random.nextInt(TOPICS.length)], random.nextInt(3));
            long value = random.nextInt(4) == 0 ? random.nextLong(1L << 40) : 100 + random.nextInt(60);
            if (random.nextBoolean()) {
                c.advanceTo(ch, value);
            } else {
                c.advanceSeq(new SeqKey(ch, SENDERS[random.nextInt(SENDERS.length)]), value);
            }
        }
        return c;
    }
}
