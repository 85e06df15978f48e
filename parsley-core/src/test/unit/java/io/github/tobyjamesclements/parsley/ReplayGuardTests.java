package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Directed test for the replay-guard fix found by the simulator (WideSoakSimTests seeds 16, 59 and
 * 99): a replayed tagged record is covered by the frontier, so it advances its sender's sequence
 * mark and releases heads waiting on it. Before the fix, a grown input whose prefix the host
 * refetched wedged on {@code SENDER_UNSEEN} claims naming records in that prefix.
 */
class ReplayGuardTests {

    private static final UUID SENDER = new UUID(7, 7);
    private final Channel c = new Channel(new UUID(0, 1), 0);
    private final Channel d = new Channel(new UUID(0, 2), 0);

    private CausalNode node() {
        NodeConfig config = new NodeConfig("n", new UUID(9, 9), new TreeSet<>(List.of(c, d)), new TreeSet<>());
        return new CausalNode(config, new TestStateStore(), new TestBrokerOffsets(), Map.of());
    }

    @Test
    void aReplayedTaggedRecordSatisfiesSequenceClaimsOnIt() {
        CausalNode n = node();
        VectorClock claim = new VectorClock().advanceSeq(new SeqKey(c, SENDER), 3);
        assertThat(n.onRecord(new InboundRecord(d, 0, claim, null, -1, null, null, 0))).isEmpty();
        n.positionAdvance(c, 10);

        List<Delivery> out = n.onRecord(new InboundRecord(c, 4, new VectorClock(), SENDER, 3, null, null, 0));

        assertThat(n.replaysSkipped()).isEqualTo(1);
        assertThat(out).extracting(Delivery::channel, Delivery::offset).containsExactly(org.assertj.core.groups.Tuple
                .tuple(d, 0L));
    }

    @Test
    void aReplayedUntaggedRecordChangesNothing() {
        CausalNode n = node();
        n.positionAdvance(c, 10);

        assertThat(n.onRecord(new InboundRecord(c, 4, new VectorClock(), null, -1, null, null, 0))).isEmpty();
        assertThat(n.state().marks()).isEmpty();
    }

    @Test
    void aReplayNeverLowersAMark() {
        CausalNode n = node();
        n.positionAdvance(c, 10);
        n.onRecord(new InboundRecord(c, 6, new VectorClock(), SENDER, 5, null, null, 0));

        n.onRecord(new InboundRecord(c, 4, new VectorClock(), SENDER, 3, null, null, 0));

        assertThat(n.state().marks().get(new SeqKey(c, SENDER))).isEqualTo(new ProtocolStore.Mark(5, 6));
    }
}
