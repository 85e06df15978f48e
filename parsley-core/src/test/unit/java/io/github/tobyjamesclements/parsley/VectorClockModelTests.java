package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The clock's sorted-array claims against a plain {@code TreeMap} model over seeded random
 * operations: the claims after every step (by map and by index), whether {@link VectorClock#raiseTo}
 * reported a rise exactly when a claim rose, and every removal, lookup, copy, overwrite in place
 * ({@link VectorClock#setTo}, the send path's reused clock) and comparison.
 * Replay a failure with {@code -Dparsley.clock.seed=<n>}.
 */
class VectorClockModelTests {

    private static final long SEED = Long.getLong("parsley.clock.seed", System.nanoTime());
    private static final UUID[] TOPICS = {new UUID(-5, 1), new UUID(0, 2), new UUID(7, 3)};
    private static final UUID[] WIDE_TOPICS = {new UUID(-9, 4), new UUID(-5, 1), new UUID(0, 2), new UUID(7, 3), new UUID(9, 0)};
    private static final UUID[] SENDERS = {new UUID(1, 0), new UUID(1, 1), new UUID(-2, 0)};

    @BeforeAll
    static void printSeed() {
        System.out.println("seed=" + SEED + " (replay with -Dparsley.clock.seed=" + SEED + ")");
    }

    @Test
    void aFewClaimsFoldedIntoAWideClockMatchAPointwiseMaxModel() {
        // a re-keyed topic's channel clock holds hundreds of claims and each record brings a few:
        // the merge gallops over the wide clock, so keys before, between, past and equal to its own
        SplittableRandom random = new SplittableRandom(SEED);
        VectorClock clock = new VectorClock();
        Map<Channel, Long> offsets = new TreeMap<>();
        Map<SeqKey, Long> seqs = new TreeMap<>();
        for (int step = 0; step < 3_000; step++) {
            VectorClock other = new VectorClock();
            for (int n = 1 + random.nextInt(step < 100 ? 40 : 3); n > 0; n--) {
                UUID topic = WIDE_TOPICS[random.nextInt(WIDE_TOPICS.length)];
                Channel ch = new Channel(topic, random.nextInt(64));
                other.advanceTo(ch, random.nextInt(1_000));
                other.advanceSeq(new SeqKey(random.nextBoolean() ? Channel.wholeTopic(topic) : ch,
                        new UUID(random.nextInt(3), random.nextInt(64))), random.nextInt(1_000));
            }
            boolean expected = raise(offsets, other.offsets()) | raise(seqs, other.seqs());
            String at = "seed=" + SEED + " step=" + step;
            assertThat(clock.raiseTo(other)).as(at + " raiseTo's answer").isEqualTo(expected);
            assertThat(clock.offsets()).as(at + " offsets").isEqualTo(offsets);
            assertThat(clock.seqs()).as(at + " seqs").isEqualTo(seqs);
        }
        assertThat(offsets.size()).as("the clock grew wide").isGreaterThan(200);
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

    @Test
    void everyOperationMatchesTheModel() {
        SplittableRandom random = new SplittableRandom(SEED ^ 0x5DEECE66DL);
        VectorClock clock = new VectorClock();
        TreeMap<Channel, Long> offsets = new TreeMap<>();
        TreeMap<SeqKey, Long> seqs = new TreeMap<>();
        for (int step = 0; step < 20_000; step++) {
            String at = "seed=" + SEED + " step=" + step;
            Channel ch = new Channel(WIDE_TOPICS[random.nextInt(WIDE_TOPICS.length)], random.nextInt(6));
            SeqKey key = new SeqKey(ch, SENDERS[random.nextInt(SENDERS.length)]);
            long value = random.nextInt(50);
            switch (random.nextInt(10)) {
                case 7 -> clock = VectorClock.copyOf(clock, random.nextInt(6));
                case 8 -> {
                    // the send path's reused clock: overwritten in place, then raised and cut like any other
                    VectorClock other = random.nextInt(8) == 0 ? clock : wideClock(random);
                    Map<Channel, Long> otherOffsets = other.offsets();
                    Map<SeqKey, Long> otherSeqs = other.seqs();
                    clock.setTo(other, random.nextInt(6));
                    offsets.clear();
                    offsets.putAll(otherOffsets);
                    seqs.clear();
                    seqs.putAll(otherSeqs);
                }
                case 0, 1 -> {
                    offsets.merge(ch, value, Math::max);
                    clock.advanceTo(ch, value);
                }
                case 2 -> {
                    seqs.merge(key, value, Math::max);
                    clock.advanceSeq(key, value);
                }
                case 3 -> {
                    offsets.remove(ch);
                    seqs.keySet().removeIf(k -> k.channel().equals(ch));
                    clock.removeChannel(ch);
                }
                case 4 -> {
                    seqs.remove(key);
                    offsets.merge(ch, value, Math::max);
                    clock.normalizeSeq(key, value);
                }
                case 5 -> {
                    VectorClock bound = wideClock(random);
                    boolean expected = offsets.entrySet().removeIf(e -> e.getValue() <= bound.offset(e.getKey()));
                    assertThat(clock.truncateAtOrBelow(bound)).as(at + " truncation's answer").isEqualTo(expected);
                }
                case 6 -> {
                    VectorClock other = wideClock(random);
                    boolean expected = raise(offsets, other.offsets()) | raise(seqs, other.seqs());
                    assertThat(clock.raiseTo(other)).as(at + " raiseTo's answer").isEqualTo(expected);
                }
                default -> {
                    VectorClock other = wideClock(random);
                    boolean expected = other.offsets().entrySet().stream()
                            .allMatch(e -> offsets.getOrDefault(e.getKey(), -1L) >= e.getValue());
                    assertThat(clock.dominates(other)).as(at + " dominates").isEqualTo(expected);
                }
            }
            assertMatches(clock, offsets, seqs, at);
            assertThat(clock.offset(ch)).as(at + " offset lookup").isEqualTo(offsets.getOrDefault(ch, -1L));
            assertThat(clock.seq(key)).as(at + " seq lookup").isEqualTo(seqs.getOrDefault(key, -1L));
        }
    }

    private static void assertMatches(VectorClock clock, TreeMap<Channel, Long> offsets, TreeMap<SeqKey, Long> seqs,
            String at) {
        assertThat(clock.offsets()).as(at + " offsets").isEqualTo(offsets);
        assertThat(clock.seqs()).as(at + " seqs").isEqualTo(seqs);
        Map<Channel, Long> indexed = new TreeMap<>();
        for (int i = 0; i < clock.offsetCount(); i++) {
            if (i > 0) {
                assertThat(clock.channel(i - 1)).as(at + " offset order").isLessThan(clock.channel(i));
            }
            indexed.put(clock.channel(i), clock.offsetAt(i));
        }
        assertThat(indexed).as(at + " offsets by index").isEqualTo(offsets);
        for (int i = 1; i < clock.seqCount(); i++) {
            assertThat(clock.seqKey(i - 1)).as(at + " seq order").isLessThan(clock.seqKey(i));
        }
        VectorClock rebuilt = new VectorClock();
        offsets.descendingMap().forEach(rebuilt::advanceTo);
        seqs.descendingMap().forEach(rebuilt::advanceSeq);
        VectorClock copy = VectorClock.copyOf(clock);
        assertThat(copy).as(at + " copy").isEqualTo(clock).isEqualTo(rebuilt).hasSameHashCodeAs(rebuilt);
        assertThat(clock.isEmpty()).as(at + " isEmpty").isEqualTo(offsets.isEmpty() && seqs.isEmpty());
    }

    /** Up to eight claims over the wide key space, so a merge both adds keys and raises shared ones. */
    private static VectorClock wideClock(SplittableRandom random) {
        VectorClock c = new VectorClock();
        for (int i = random.nextInt(9); i > 0; i--) {
            Channel ch = new Channel(WIDE_TOPICS[random.nextInt(WIDE_TOPICS.length)], random.nextInt(6));
            long value = random.nextInt(50);
            if (random.nextInt(3) > 0) {
                c.advanceTo(ch, value);
            } else {
                c.advanceSeq(new SeqKey(ch, SENDERS[random.nextInt(SENDERS.length)]), value);
            }
        }
        return c;
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
