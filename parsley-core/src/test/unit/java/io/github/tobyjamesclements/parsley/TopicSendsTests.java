package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link TopicSends}: the claim on a topic's partitions other than a stamp's destination, kept as
 * sends are issued (protocol.md §6.1), against what a walk over every partition sent to gives.
 */
class TopicSendsTests {

    private static final UUID TOPIC = new UUID(7, 7);
    private static final Channel WHOLE = Channel.wholeTopic(TOPIC);
    private static final Channel A = new Channel(TOPIC, 0);
    private static final Channel B = new Channel(TOPIC, 1);
    private static final Channel C = new Channel(TOPIC, 2);
    private static final Channel ELSEWHERE = new Channel(new UUID(9, 9), 0);
    private static final UUID SELF = new UUID(1, 3);

    private final TopicSends sends = new TopicSends(WHOLE);

    private Map<SeqKey, Long> claim(Channel destination, boolean destinationSent) {
        VectorClock stamp = new VectorClock();
        sends.claim(stamp, destination, destinationSent, new SeqKey(WHOLE, SELF), SELF);
        return stamp.seqs();
    }

    @Test
    void nothingSentClaimsNothing() {
        assertThat(claim(A, false)).isEmpty();
    }

    @Test
    void sendsToTheDestinationAloneAreImpliedByItsLog() {
        sends.sent(A, 0, true);
        sends.sent(A, 1, false);
        assertThat(claim(A, true)).isEmpty();
    }

    @Test
    void sendsToOneOtherPartitionAreClaimedOnThatPartition() {
        sends.sent(A, 0, true);
        sends.sent(A, 1, false);
        assertThat(claim(B, false)).containsExactly(Map.entry(new SeqKey(A, SELF), 1L));
        assertThat(claim(ELSEWHERE, false)).containsExactly(Map.entry(new SeqKey(A, SELF), 1L));
    }

    @Test
    void withTheDestinationLatestTheOtherPartitionIsClaimedAtItsLastSend() {
        sends.sent(A, 0, true);
        sends.sent(B, 1, true);
        sends.sent(A, 2, false);
        sends.sent(A, 3, false);
        assertThat(claim(A, true)).containsExactly(Map.entry(new SeqKey(B, SELF), 1L));
        assertThat(claim(B, true)).containsExactly(Map.entry(new SeqKey(A, SELF), 3L));
    }

    @Test
    void sendsToTwoOrMoreOtherPartitionsAreOneWholeTopicClaimAtTheHighestOfThem() {
        sends.sent(A, 0, true);
        sends.sent(B, 1, true);
        sends.sent(C, 2, true);
        sends.sent(C, 3, false);
        assertThat(claim(C, true)).as("A and B, the highest 1").containsExactly(Map.entry(new SeqKey(WHOLE, SELF), 1L));
        assertThat(claim(A, true)).as("B and C, the highest 3").containsExactly(Map.entry(new SeqKey(WHOLE, SELF), 3L));
        assertThat(claim(ELSEWHERE, false)).containsExactly(Map.entry(new SeqKey(WHOLE, SELF), 3L));
    }

    @Test
    void theClaimMatchesAWalkOverEveryPartitionOnSeededRandomSends() {
        long seed = Long.getLong("parsley.sends.seed", System.nanoTime());
        System.out.println("seed=" + seed + " (replay with -Dparsley.sends.seed=" + seed + ")");
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        Channel[] partitions = {A, B, C, new Channel(TOPIC, 3)};
        Map<Channel, Long> last = new java.util.TreeMap<>();
        for (long seq = 0; seq < 200; seq++) {
            Channel to = partitions[random.nextInt(random.nextBoolean() ? 2 : partitions.length)];
            sends.sent(to, seq, !last.containsKey(to));
            last.put(to, seq);
            Channel destination = partitions[random.nextInt(partitions.length)];
            Map<Channel, Long> others = new java.util.TreeMap<>(last);
            others.remove(destination);
            Map<SeqKey, Long> expected = others.isEmpty() ? Map.of()
                    : others.size() == 1 ? Map.of(new SeqKey(others.keySet().iterator().next(), SELF), others.values().iterator().next())
                    : Map.of(new SeqKey(WHOLE, SELF), others.values().stream().max(Long::compare).orElseThrow());
            assertThat(claim(destination, last.containsKey(destination))).as("seed=%d seq=%d", seed, seq)
                    .isEqualTo(expected);
        }
    }
}
