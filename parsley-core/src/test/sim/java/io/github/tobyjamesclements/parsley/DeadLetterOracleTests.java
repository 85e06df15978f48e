package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The oracle's judgement of dead letters on hand-built histories: only poison may be dead-lettered
 * and poison never delivered, a dead letter counts as handled (no duplicate, no gap, no causal
 * hole) but joins nobody's past, and an aborted step's dead letter is forgotten.
 */
class DeadLetterOracleTests {

    private final Channel c1 = new Channel(new UUID(0, 1), 0);
    private final Channel c2 = new Channel(new UUID(0, 2), 0);
    private final Set<Long> poison = new TreeSet<>();
    private final Oracle oracle = new Oracle(Obligations.invariants(), (node, id) -> poison.contains(id));

    DeadLetterOracleTests() {
        oracle.actor("P", false);
        oracle.actor("N", true);
        oracle.declare("N", new TreeSet<>(List.of(c1, c2)));
        oracle.baseline("N", c1, 0);
        oracle.baseline("N", c2, 0);
    }

    private long committed(Channel c, long offset) {
        long id = oracle.nextId();
        oracle.emitted(id, "P", c, offset, true);
        oracle.committed(List.of(id));
        return id;
    }

    @Test
    void poisonMustBeDeadLetteredAndNothingElse() {
        long healthy = committed(c1, 0);
        long bad = committed(c1, 1);
        poison.add(bad);

        assertThatThrownBy(() -> oracle.deadLettered("N", c1, 0, healthy, true))
                .hasMessageStartingWith("HEALTHY DEAD-LETTERED");
        assertThatThrownBy(() -> oracle.delivered("N", c1, 1, bad)).hasMessageStartingWith("POISON DELIVERED");
    }

    @Test
    void aDeadLetterIsHandledOnceAndInItsChannelsOrderWhenGated() {
        long first = committed(c1, 0);
        long second = committed(c1, 1);
        poison.add(first);
        poison.add(second);

        oracle.deadLettered("N", c1, 1, second, true);

        assertThatThrownBy(() -> oracle.deadLettered("N", c1, 1, second, false)).hasMessageStartingWith("DUPLICATE");
        assertThatThrownBy(() -> oracle.deadLettered("N", c1, 0, first, true)).hasMessageStartingWith("FIFO");
        assertThatCode(() -> oracle.deadLettered("N", c1, 0, first, false)).doesNotThrowAnyException();
    }

    @Test
    void aDeadLetteredAncestorCountsAsHandledButJoinsNoPast() {
        long bad = committed(c1, 0);
        poison.add(bad);
        oracle.acknowledged("P", bad);
        long after = committed(c2, 0);

        assertThatThrownBy(() -> oracle.delivered("N", c2, 0, after)).hasMessageStartingWith("CAUSAL VIOLATION");
        oracle.deadLettered("N", c1, 0, bad, true);
        assertThat(oracle.actor("N").working.past.get((int) bad)).isFalse();
        assertThatCode(() -> oracle.delivered("N", c2, 0, after)).doesNotThrowAnyException();
        assertThat(oracle.actor("N").working.past.get((int) after)).isTrue();
    }

    @Test
    void anAbortedStepsDeadLetterIsForgotten() {
        long bad = committed(c1, 0);
        poison.add(bad);

        oracle.deadLettered("N", c1, 0, bad, false);
        oracle.abort("N");

        assertThat(oracle.actor("N").working.deadLettered.isEmpty()).isTrue();
        oracle.deadLettered("N", c1, 0, bad, false);
        oracle.commit("N");
        assertThat(oracle.actor("N").committed.deadLettered.get((int) bad)).isTrue();
        assertThat(oracle.actor("N").committed.delivered.get((int) bad)).isTrue();
    }
}
