package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link Probes} (protocol.md §3.9): wants, tickets and the answers a head is judged by, oldest
 * covering first, kept in ticket order with watermarks that never fall.
 */
class ProbesTests {

    private static final Channel X = new Channel(new UUID(1, 1), 0);
    private static final Channel OWN = new Channel(new UUID(2, 2), 0);

    private final Probes probes = new Probes();

    private Probes.Ticket start(long ownArrivedBelow) {
        return probes.start(X, Map.of(OWN, ownArrivedBelow, X, 0L));
    }

    private Probes.Answer judge(long headOffset, long position) {
        return probes.firstCovering(X, position, t -> t.covers(OWN, headOffset));
    }

    @Test
    void aWantLastsUntilAProbeOfThePartitionStarts() {
        probes.want(X);
        assertThat(probes.wanted()).containsExactly(X);
        start(1);
        assertThat(probes.wanted()).isEmpty();
        assertThat(probes.anyAnswered()).isFalse();
    }

    @Test
    void aHeadIsJudgedByTheOldestAnswerThatCoversIt() {
        Probes.Ticket first = start(5);
        Probes.Ticket second = start(9);
        probes.answered(first, 10);
        probes.answered(second, 20);

        assertThat(judge(4, 0).highWatermark()).as("covered by both: the oldest").isEqualTo(10);
        assertThat(judge(7, 0).highWatermark()).as("arrived after the first started").isEqualTo(20);
        assertThat(judge(9, 0)).as("arrived after both").isNull();
        assertThat(probes.anyAnswered()).isTrue();
    }

    @Test
    void anAnswerIsDroppedOnceThePositionReachesTheNextOnesWatermark() {
        Probes.Ticket first = start(5);
        Probes.Ticket second = start(9);
        probes.answered(first, 10);
        probes.answered(second, 20);

        assertThat(judge(4, 19).highWatermark()).as("the next one's 20 not reached: the first stands").isEqualTo(10);
        assertThat(judge(4, 20).highWatermark()).as("the first dropped; the second covers the head too")
                .isEqualTo(20);
        assertThat(judge(4, 0).highWatermark()).as("dropped for good").isEqualTo(20);
    }

    @Test
    void anOlderTicketsAnswerAfterANewerOneIsIgnoredAndWatermarksNeverFall() {
        Probes.Ticket first = start(5);
        Probes.Ticket second = start(9);
        Probes.Ticket third = start(12);
        probes.answered(second, 20);
        probes.answered(first, 10);
        assertThat(judge(4, 0).highWatermark()).as("the older answer came late: ignored").isEqualTo(20);
        assertThat(judge(7, 10)).as("kept, it would have let the second answer be dropped at position 10")
                .extracting(Probes.Answer::highWatermark).isEqualTo(20L);

        probes.answered(third, 15);
        assertThat(judge(10, 0).highWatermark()).as("a later read below an earlier one is raised to it")
                .isEqualTo(20);
    }

    @Test
    void aNegativeWatermarkIsRefused() {
        Probes.Ticket t = start(1);
        assertThatThrownBy(() -> probes.answered(t, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("High watermark must be >= 0");
    }
}
