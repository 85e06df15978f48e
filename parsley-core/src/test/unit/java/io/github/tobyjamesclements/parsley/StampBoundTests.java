package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.NodeRig.C;
import static io.github.tobyjamesclements.parsley.NodeRig.D;
import static io.github.tobyjamesclements.parsley.NodeRig.S0;
import static io.github.tobyjamesclements.parsley.NodeRig.SELF;
import static io.github.tobyjamesclements.parsley.NodeRig.TOPIC_S;
import static io.github.tobyjamesclements.parsley.NodeRig.TOPIC_X;
import static io.github.tobyjamesclements.parsley.NodeRig.TOPIC_Y;
import static io.github.tobyjamesclements.parsley.NodeRig.U;
import static io.github.tobyjamesclements.parsley.NodeRig.V;
import static io.github.tobyjamesclements.parsley.NodeRig.clock;
import static io.github.tobyjamesclements.parsley.NodeRig.record;
import static io.github.tobyjamesclements.parsley.NodeRig.seq;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stamp's hard bound at run time, the node's half: coarsening and its count (protocol.md §6.7, §10.2). */
class StampBoundTests {

    private static final Channel WHOLE_X = Channel.wholeTopic(TOPIC_X);
    private static final Channel WHOLE_Y = Channel.wholeTopic(TOPIC_Y);

    private final NodeRig rig = new NodeRig().consumes(C, D).sinks(TOPIC_S);

    /** Sequence claims of two senders on three partitions of X and one of Y, carried in custody. */
    private static VectorClock wideClaims() {
        return clock().advanceTo(new Channel(TOPIC_X, 4), 40)
                .advanceSeq(seq(new Channel(TOPIC_X, 1), U), 5)
                .advanceSeq(seq(new Channel(TOPIC_X, 2), U), 9)
                .advanceSeq(seq(new Channel(TOPIC_X, 3), U), 7)
                .advanceSeq(seq(new Channel(TOPIC_X, 1), V), 3)
                .advanceSeq(seq(WHOLE_X, V), 2)
                .advanceSeq(seq(new Channel(TOPIC_Y, 6), U), 11);
    }

    private int unboundedSize() {
        CausalNode node = new NodeRig().consumes(C, D).sinks(TOPIC_S).start();
        node.onRecord(record(C, 0, wideClaims()));
        return node.encodeSend(S0).length;
    }

    @Test
    void aStampWithinItsBoundIsLeftAsItIs() {
        int size = unboundedSize();
        CausalNode node = rig.maxStampBytes(size).start();
        node.onRecord(record(C, 0, wideClaims()));

        SendStamp stamp = node.prepareSend(S0);

        assertThat(stamp.clock().seqs()).hasSize(6);
        assertThat(node.stampsCoarsened()).isZero();
    }

    @Test
    void aStampOverItsBoundClaimsEachSendersTopicWholeAtTheHighestOfItsClaims() {
        int size = unboundedSize();
        CausalNode node = rig.maxStampBytes(size - 1).start();
        node.onRecord(record(C, 0, wideClaims()));

        byte[] bytes = node.encodeSend(S0);
        VectorClock stamp = ClockCodec.decodeStamp(bytes).clock();

        assertThat(bytes.length).isLessThan(size);
        assertThat(stamp.seqs()).as("U's 5, 9 and 7 on X become 9 on the whole topic; V's 3 on a partition"
                + " outranks its whole-topic 2; Y's one partition claim becomes a whole-topic claim").containsOnly(
                Map.entry(seq(WHOLE_X, V), 3L), Map.entry(seq(WHOLE_X, U), 9L), Map.entry(seq(WHOLE_Y, U), 11L));
        assertThat(stamp.offsets()).as("offset claims are never coarsened")
                .containsEntry(new Channel(TOPIC_X, 4), 40L).containsEntry(C, 0L);
        assertThat(node.stampsCoarsened()).isEqualTo(1);
    }

    @Test
    void aStampStillOverItsBoundIsCoarsenedAndHandedBackForTheHostToRefuse() {
        CausalNode node = rig.maxStampBytes(1).start();
        node.onRecord(record(C, 0, wideClaims()));

        byte[] bytes = node.encodeSend(S0);

        assertThat(bytes.length).isGreaterThan(1);
        assertThat(ClockCodec.decodeStamp(bytes).clock().seqs().keySet()).allMatch(k -> k.channel().isWholeTopic());
        assertThat(node.stampsCoarsened()).isEqualTo(1);
    }

    @Test
    void theOwnClaimsAreCoarsenedLikeAnyOther() {
        NodeRig wide = new NodeRig().consumes(C).sinks(TOPIC_S);
        wide.broker.topic(TOPIC_S, 3);
        CausalNode unbounded = wide.start();
        unbounded.onRecord(record(C, 0, wideClaims()));
        unbounded.prepareSend(new Channel(TOPIC_S, 1));
        int size = unbounded.encodeSend(new Channel(TOPIC_S, 0)).length;

        CausalNode node = wide.crash().maxStampBytes(size - 1).start();
        node.onRecord(record(C, 0, wideClaims()));
        node.prepareSend(new Channel(TOPIC_S, 1));
        VectorClock stamp = ClockCodec.decodeStamp(node.encodeSend(new Channel(TOPIC_S, 0))).clock();

        assertThat(stamp.seqs()).as("the own claim on S1 becomes a whole-topic claim at the same sequence")
                .containsEntry(seq(Channel.wholeTopic(TOPIC_S), SELF), 0L)
                .doesNotContainKey(seq(new Channel(TOPIC_S, 1), SELF));
    }
}
