package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.ClockCodecTests.S1;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.S_NEG;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.T1;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.T_NEG;
import static io.github.tobyjamesclements.parsley.ClockCodecTests.T_ONE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The clock operations of protocol.md §1.2: every mutation only raises, except explicit removals. */
class VectorClockTests {

    private static final Channel A = new Channel(T1, 7);
    private static final Channel B = new Channel(T1, 8);
    private static final Channel N = new Channel(T_NEG, 0);
    private static final SeqKey A_S1 = new SeqKey(A, S1);
    private static final SeqKey A_SNEG = new SeqKey(A, S_NEG);
    private static final SeqKey B_S1 = new SeqKey(B, S1);

    @Test
    void mergingAnEmptyClockIntoAnEmptyOneRaisesNothing() {
        assertThat(new VectorClock().raiseTo(new VectorClock())).isFalse();
    }

    @Test
    void clocksThatDifferInOneClaimHashApart() {
        java.util.Set<Integer> hashes = new java.util.HashSet<>();
        for (int n = 0; n < 50; n++) {
            hashes.add(new VectorClock().advanceTo(A, n).advanceSeq(new SeqKey(A, S1), 3).hashCode());
            hashes.add(new VectorClock().advanceTo(A, 1).advanceSeq(new SeqKey(A, S1), n + 100).hashCode());
        }
        assertThat(hashes).as("100 distinct clocks").hasSizeGreaterThan(90);
    }

    @Test
    void absentEntriesClaimNothing() {
        VectorClock clock = new VectorClock();

        assertThat(clock.offset(A)).isEqualTo(VectorClock.NOTHING).isEqualTo(-1);
        assertThat(clock.seq(A_S1)).isEqualTo(VectorClock.NOTHING);
        assertThat(clock.isEmpty()).isTrue();
    }

    @Test
    void zeroIsAClaimDistinctFromAbsence() {
        VectorClock clock = new VectorClock().advanceTo(A, 0);

        assertThat(clock.offset(A)).isZero();
        assertThat(clock.isEmpty()).isFalse();
        assertThat(clock).isNotEqualTo(new VectorClock());
    }

    @Test
    void advanceToNeverLowers() {
        VectorClock clock = new VectorClock().advanceTo(A, 5).advanceTo(A, 3);

        assertThat(clock.offset(A)).isEqualTo(5);
        assertThat(clock.advanceTo(A, 9).offset(A)).isEqualTo(9);
    }

    @Test
    void advanceToRejectsNegativeOffsetsAndLeavesTheClockUnchanged() {
        VectorClock clock = new VectorClock().advanceTo(A, 5);

        assertThatThrownBy(() -> clock.advanceTo(A, -1)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("Offset claim must be >= 0; channel=01020304:7, offset=-1");
        assertThatThrownBy(() -> clock.advanceTo(B, Long.MIN_VALUE)).isExactlyInstanceOf(IllegalArgumentException.class);
        assertThat(clock).isEqualTo(new VectorClock().advanceTo(A, 5));
    }

    @Test
    void advanceSeqNeverLowers() {
        VectorClock clock = new VectorClock().advanceSeq(A_S1, 4).advanceSeq(A_S1, 2);

        assertThat(clock.seq(A_S1)).isEqualTo(4);
        assertThat(clock.advanceSeq(A_S1, 6).seq(A_S1)).isEqualTo(6);
    }

    @Test
    void advanceSeqRejectsNegativeSequencesAndLeavesTheClockUnchanged() {
        VectorClock clock = new VectorClock().advanceSeq(A_S1, 4);

        assertThatThrownBy(() -> clock.advanceSeq(A_S1, -1)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("Sequence claim must be >= 0; key=01020304:7/11121314#3, seq=-1");
        assertThat(clock).isEqualTo(new VectorClock().advanceSeq(A_S1, 4));
    }

    @Test
    void offsetAndSequenceClaimsAreSeparate() {
        VectorClock clock = new VectorClock().advanceTo(A, 5).advanceSeq(A_S1, 9);

        assertThat(clock.offset(A)).isEqualTo(5);
        assertThat(clock.seq(A_S1)).isEqualTo(9);
        assertThat(clock.seq(A_SNEG)).isEqualTo(VectorClock.NOTHING);
    }

    @Test
    void mergeMaxTakesThePointwiseMaximumOfBothKinds() {
        VectorClock mine = new VectorClock().advanceTo(A, 5).advanceTo(B, 1).advanceSeq(A_S1, 3);
        VectorClock theirs = new VectorClock().advanceTo(A, 2).advanceTo(N, 4).advanceSeq(A_S1, 7).advanceSeq(B_S1, 0);

        mine.mergeMax(theirs);

        assertThat(mine).isEqualTo(new VectorClock().advanceTo(A, 5).advanceTo(B, 1).advanceTo(N, 4)
                .advanceSeq(A_S1, 7).advanceSeq(B_S1, 0));
        assertThat(theirs).isEqualTo(new VectorClock().advanceTo(A, 2).advanceTo(N, 4).advanceSeq(A_S1, 7)
                .advanceSeq(B_S1, 0));
    }

    @Test
    void mergeMaxWithItselfChangesNothing() {
        VectorClock clock = new VectorClock().advanceTo(A, 5).advanceSeq(A_S1, 3);

        assertThat(clock.mergeMax(clock)).isEqualTo(new VectorClock().advanceTo(A, 5).advanceSeq(A_S1, 3));
    }

    @Test
    void mergeOffsetsIgnoresSequenceClaims() {
        VectorClock clock = new VectorClock().mergeOffsets(new VectorClock().advanceTo(A, 5).advanceSeq(A_S1, 3));

        assertThat(clock).isEqualTo(new VectorClock().advanceTo(A, 5));
    }

    @Test
    void dominatesComparesOffsetClaimsOnly() {
        VectorClock high = new VectorClock().advanceTo(A, 5).advanceTo(B, 2);
        VectorClock low = new VectorClock().advanceTo(A, 5).advanceTo(B, 1).advanceSeq(A_S1, 1_000);

        assertThat(high.dominates(low)).isTrue();
        assertThat(low.dominates(high)).isFalse();
    }

    @Test
    void dominatesFailsOnAMissingOrHigherOffsetClaim() {
        VectorClock clock = new VectorClock().advanceTo(A, 5);

        assertThat(clock.dominates(new VectorClock().advanceTo(B, 0))).isFalse();
        assertThat(clock.dominates(new VectorClock().advanceTo(A, 6))).isFalse();
        assertThat(clock.dominates(new VectorClock().advanceTo(A, 5))).isTrue();
        assertThat(clock.dominates(new VectorClock())).isTrue();
        assertThat(new VectorClock().dominates(new VectorClock())).isTrue();
        assertThat(new VectorClock().dominates(new VectorClock().advanceSeq(A_S1, 0))).isTrue();
    }

    @Test
    void normalizeSeqReplacesTheSequenceClaimByAnOffsetClaim() {
        VectorClock clock = new VectorClock().advanceSeq(A_S1, 4).advanceSeq(A_SNEG, 2).advanceSeq(B_S1, 1);

        clock.normalizeSeq(A_S1, 40);

        assertThat(clock).isEqualTo(new VectorClock().advanceTo(A, 40).advanceSeq(A_SNEG, 2).advanceSeq(B_S1, 1));
    }

    @Test
    void normalizeSeqNeverLowersTheOffsetClaim() {
        VectorClock clock = new VectorClock().advanceTo(A, 50).advanceSeq(A_S1, 4);

        clock.normalizeSeq(A_S1, 40);

        assertThat(clock).isEqualTo(new VectorClock().advanceTo(A, 50));
    }

    @Test
    void removeSeqDropsOnlyThatClaim() {
        VectorClock clock = new VectorClock().advanceTo(A, 1).advanceSeq(A_S1, 4).advanceSeq(A_SNEG, 2);

        clock.removeSeq(A_S1);

        assertThat(clock).isEqualTo(new VectorClock().advanceTo(A, 1).advanceSeq(A_SNEG, 2));
    }

    @Test
    void truncateAtOrBelowRemovesOffsetClaimsTheBoundCoversAndLeavesSequenceClaims() {
        VectorClock clock = new VectorClock().advanceTo(A, 5).advanceTo(B, 9).advanceTo(N, 3)
                .advanceSeq(A_S1, 0).advanceSeq(B_S1, 7);
        VectorClock stability = new VectorClock().advanceTo(A, 5).advanceTo(B, 8).advanceSeq(A_S1, 100)
                .advanceSeq(B_S1, 100);

        boolean removed = clock.truncateAtOrBelow(stability);

        assertThat(removed).isTrue();
        assertThat(clock).isEqualTo(new VectorClock().advanceTo(B, 9).advanceTo(N, 3).advanceSeq(A_S1, 0)
                .advanceSeq(B_S1, 7));
    }

    @Test
    void truncateAtOrBelowReportsWhenNothingWasRemoved() {
        VectorClock clock = new VectorClock().advanceTo(A, 5).advanceSeq(A_S1, 0);

        assertThat(clock.truncateAtOrBelow(new VectorClock().advanceTo(A, 4).advanceTo(B, 99))).isFalse();
        assertThat(clock).isEqualTo(new VectorClock().advanceTo(A, 5).advanceSeq(A_S1, 0));
    }

    @Test
    void equalityIsMapEqualityRegardlessOfHowTheClockWasBuilt() {
        VectorClock one = new VectorClock().advanceTo(A, 5).advanceTo(N, 1).advanceSeq(A_S1, 2);
        VectorClock other = new VectorClock().advanceSeq(A_S1, 1).advanceTo(N, 1).advanceSeq(A_S1, 2).advanceTo(A, 3)
                .mergeMax(new VectorClock().advanceTo(A, 5));

        assertThat(one).isEqualTo(other).hasSameHashCodeAs(other);
        assertThat(one).isNotEqualTo(VectorClock.copyOf(one).advanceSeq(B_S1, 0));
        assertThat(one).isNotEqualTo(VectorClock.copyOf(one).advanceTo(A, 6));
        assertThat(one).isNotEqualTo(null).isNotEqualTo("clock");
    }

    @Test
    void copyOfIsIndependent() {
        VectorClock original = new VectorClock().advanceTo(A, 5).advanceSeq(A_S1, 2);

        VectorClock copy = VectorClock.copyOf(original).advanceTo(A, 9).advanceSeq(B_S1, 1);

        assertThat(original).isEqualTo(new VectorClock().advanceTo(A, 5).advanceSeq(A_S1, 2));
        assertThat(copy.offset(A)).isEqualTo(9);
    }

    @Test
    void viewsAreReadOnlyAndInSignedChannelOrder() {
        VectorClock clock = new VectorClock().advanceTo(A, 1).advanceTo(new Channel(T_ONE, 3), 1).advanceTo(N, 1)
                .advanceSeq(A_S1, 0).advanceSeq(A_SNEG, 0);

        assertThat(clock.offsets().keySet()).containsExactly(N, new Channel(T_ONE, 3), A);
        assertThat(clock.seqs().keySet()).containsExactly(A_SNEG, A_S1);
        assertThatThrownBy(() -> clock.offsets().put(B, 1L)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> clock.seqs().clear()).isInstanceOf(UnsupportedOperationException.class);
    }
}
