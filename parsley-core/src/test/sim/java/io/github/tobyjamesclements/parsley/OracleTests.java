package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The oracle's own tests (style.md rule 12): its judgement on hand-built histories, and the
 * self-tests of protocol.md §14.3 V8 (an eager protocol is flagged) and V9 (a host that commits its
 * store on crash, or drops position advances, is flagged).
 */
class OracleTests {

    private final Channel c1 = new Channel(new UUID(0, 1), 0);
    private final Channel c2 = new Channel(new UUID(0, 2), 0);
    private final Channel c3 = new Channel(new UUID(0, 3), 0);
    private final Oracle oracle = new Oracle(Obligations.invariants());

    OracleTests() {
        oracle.actor("P", false);
        oracle.actor("N", true);
        oracle.actor("M", true);
        oracle.declare("N", new TreeSet<>(List.of(c1, c2)));
        oracle.baseline("N", c1, 0);
        oracle.baseline("N", c2, 0);
    }

    private long emit(String actor, Channel c, long offset) {
        long id = oracle.nextId();
        oracle.emitted(id, actor, c, offset, true);
        return id;
    }

    private long committed(String actor, Channel c, long offset) {
        long id = emit(actor, c, offset);
        oracle.committed(List.of(id));
        return id;
    }

    @Test
    void deliveringARecordBeforeItsAncestorIsACausalViolation() {
        long a = committed("P", c1, 0);
        oracle.acknowledged("P", a);
        long b = committed("P", c2, 0);

        assertThatThrownBy(() -> oracle.delivered("N", c2, 0, b)).isInstanceOf(SimViolation.class)
                .hasMessageStartingWith("CAUSAL VIOLATION").hasMessageContaining("#" + a);
    }

    @Test
    void deliveringAfterTheAncestorIsAccepted() {
        long a = committed("P", c1, 0);
        oracle.acknowledged("P", a);
        long b = committed("P", c2, 0);

        oracle.delivered("N", c1, 0, a);

        assertThatCode(() -> oracle.delivered("N", c2, 0, b)).doesNotThrowAnyException();
    }

    @Test
    void ancestryIsTransitiveThroughAnotherNodesDeliveries() {
        long a = committed("P", c1, 0);
        oracle.declare("M", new TreeSet<>(List.of(c1)));
        oracle.baseline("M", c1, 0);
        oracle.delivered("M", c1, 0, a);
        long b = emit("M", c3, 0);
        oracle.commit("M");
        oracle.committed(List.of(b));
        oracle.observed("P", b);
        long c = committed("P", c2, 0);

        assertThatThrownBy(() -> oracle.delivered("N", c2, 0, c)).hasMessageStartingWith("CAUSAL VIOLATION")
                .hasMessageContaining("#" + a);
    }

    @Test
    void anAncestorBelowTheBaselineIsOutOfScope() {
        long a = committed("P", c1, 0);
        oracle.acknowledged("P", a);
        long b = committed("P", c2, 0);
        Oracle.Actor n = oracle.actor("N");
        n.working.baselines.put(c1, 1L);

        assertThatCode(() -> oracle.delivered("N", c2, 0, b)).doesNotThrowAnyException();
    }

    @Test
    void anAncestorOnAChannelTheNodeDoesNotConsumeImposesNothing() {
        long a = committed("P", c3, 0);
        oracle.acknowledged("P", a);
        long b = committed("P", c2, 0);

        assertThatCode(() -> oracle.delivered("N", c2, 0, b)).doesNotThrowAnyException();
    }

    @Test
    void anAbortedAncestorIsNoCause() {
        long a = emit("P", c1, 0);
        oracle.acknowledged("P", a);
        oracle.aborted(List.of(a));
        long b = committed("P", c2, 0);

        assertThatCode(() -> oracle.delivered("N", c2, 0, b)).doesNotThrowAnyException();
    }

    @Test
    void aPlainProducersUnacknowledgedSendIsNotInItsPast() {
        committed("P", c1, 0);
        long b = committed("P", c2, 0);

        assertThatCode(() -> oracle.delivered("N", c2, 0, b)).doesNotThrowAnyException();
    }

    @Test
    void aNodesEarlierEmissionIsInItsPast() {
        long a = emit("M", c1, 0);
        long b = emit("M", c2, 0);
        oracle.commit("M");
        oracle.committed(List.of(a, b));

        assertThatThrownBy(() -> oracle.delivered("N", c2, 0, b)).hasMessageStartingWith("CAUSAL VIOLATION");
    }

    @Test
    void anAbortedStepTeachesTheOracleNothing() {
        long a = committed("P", c1, 0);
        oracle.declare("M", new TreeSet<>(List.of(c1)));
        oracle.baseline("M", c1, 0);
        oracle.delivered("M", c1, 0, a);
        oracle.abort("M");
        long b = emit("M", c2, 0);
        oracle.commit("M");
        oracle.committed(List.of(b));

        assertThat(oracle.fact(b).ancestors.get((int) a)).isFalse();
        assertThatCode(() -> oracle.delivered("M", c1, 0, a)).doesNotThrowAnyException();
    }

    @Test
    void aSecondDeliveryOfOneRecordIsADuplicate() {
        long a = committed("P", c1, 0);
        oracle.delivered("N", c1, 0, a);

        assertThatThrownBy(() -> oracle.delivered("N", c1, 0, a)).hasMessageStartingWith("DUPLICATE");
    }

    @Test
    void aLowerOffsetAfterAHigherOneBreaksFifo() {
        long a = committed("P", c1, 0);
        long b = committed("P", c1, 1);
        oracle.delivered("N", c1, 1, b);

        assertThatThrownBy(() -> oracle.delivered("N", c1, 0, a)).hasMessageStartingWith("FIFO");
    }

    @Test
    void anUncommittedRecordIsUnknown() {
        long a = emit("P", c1, 0);

        assertThatThrownBy(() -> oracle.delivered("N", c1, 0, a)).hasMessageStartingWith("UNKNOWN RECORD");
    }

    @Test
    void anEagerDependencyIgnoringProtocolIsFlagged() {
        for (long seed = 0; seed < 10; seed++) {
            long s = seed;
            SimViolation v = catchThrowableOfType(SimViolation.class,
                    () -> SharedInputRaceSimTests.SHARED_INPUT.run(s, Faults.EAGER_DELIVERY));
            assertThat(v).as("seed=%d", seed).isNotNull();
            assertThat(v.kind()).isEqualTo("CAUSAL VIOLATION");
        }
    }

    @Test
    void aHostThatCommitsItsStoreOnCrashIsFlagged() {
        int caught = 0;
        for (long seed = 0; seed < 10; seed++) {
            long s = seed;
            if (catchThrowable(() -> CrashRecoverySimTests.CRASH_CHAIN.run(s, Faults.COMMIT_STORE_ON_CRASH)) != null) {
                caught++;
            }
        }
        assertThat(caught).isPositive();
    }

    @Test
    void aHostThatDropsPositionAdvancesWedgesTheQuietSink() {
        for (long seed = 0; seed < 10; seed++) {
            long s = seed;
            SimViolation v = catchThrowableOfType(SimViolation.class,
                    () -> QuietSinkSimTests.QUIET_SINK.run(s, Faults.DROP_POSITION_ADVANCES));
            assertThat(v).as("seed=%d", seed).isNotNull();
            assertThat(v.kind()).isEqualTo("WEDGE");
        }
    }

    @Test
    void theHonestProtocolAndHostPassTheSameWorlds() {
        for (long seed = 0; seed < 10; seed++) {
            long s = seed;
            assertThatCode(() -> SharedInputRaceSimTests.SHARED_INPUT.run(s, Fault.NONE)).doesNotThrowAnyException();
            assertThatCode(() -> QuietSinkSimTests.QUIET_SINK.run(s, Fault.NONE)).doesNotThrowAnyException();
        }
    }
}
