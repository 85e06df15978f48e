package io.github.tobyjamesclements.parsley;

import java.util.Map;
import java.util.UUID;

/**
 * The stamp's rules beside its merge (protocol.md §6): the init seed of own outputs (§6.4), and
 * the normalisation of sequence claims at the stamping site (§6.3), where claims this node can
 * resolve become offset claims, so sequence claims do not travel far, and this incarnation's own
 * sends are claimed by sequence (§6.2).
 */
final class Stamping {

    private Stamping() {
    }

    /**
     * The init end-offset seed (protocol.md §6.4, §16.1): each sink channel's high watermark minus
     * one, an own-output claim where this node sent.
     *
     * @throws IllegalStateException when a declared sink topic cannot be resolved
     */
    static void seedOwnOutputs(NodeConfig config, NodeState state, BrokerOffsets brokerOffsets, NodeSeams seams) {
        for (UUID topic : config.sinkTopics()) {
            Map<Integer, Long> ends = seams.sinkEnds(topic, brokerOffsets).orElseThrow(() -> new IllegalStateException(
                    "Cannot resolve sink end offsets; node=" + config.nodeId() + ", topic=" + topic
                            + "; the declared sink topic does not exist: create it before starting the stage"));
            ends.forEach((p, end) -> {
                Channel c = new Channel(topic, p);
                if (end > 0) {
                    state.seedSinkEnd(c, end - 1, seams.seedsOwnOutput(c, state.baselineSeq(c)));
                }
            });
        }
    }

    /**
     * Rewrites the merged stamp's sequence claims in place.
     *
     * @return how many claims were rewritten or dropped
     */
    static int normalize(VectorClock stamp, UUID self, NodeState state) {
        int changed = 0;
        // backwards: a claim rewritten here leaves the stamp, and only the claims after it move
        for (int i = stamp.seqCount() - 1; i >= 0; i--) {
            SeqKey k = stamp.seqKey(i);
            long s = stamp.seqAt(i);
            if (k.sender().equals(self)) {
                normalizeOwn(stamp, state, k);
                changed++;
            } else if (!k.channel().isWholeTopic()) {
                ProtocolStore.Mark mark = state.mark(k);
                if (mark != null && mark.seq() >= s) {
                    stamp.normalizeSeq(k, mark.offset());
                    changed++;
                } else if (stamp.seq(new SeqKey(state.topicKeyOf(k.channel()), k.sender())) >= s) {
                    // the sender's whole-topic claim asks for as much on this partition and more (§6.3 rule 4)
                    stamp.removeSeq(k);
                    changed++;
                }
            }
        }
        return changed;
    }

    /**
     * Adds this incarnation's own sends as sequence claims (§6.2): a send above the baseline is not
     * yet covered by any offset this node knows, so a stamp names it by sequence. Per sink topic, the
     * sends to partitions other than {@code destination} are claimed by one claim on that partition
     * when they all went to one, else by one whole-topic claim at the highest of them: a stage that
     * spreads its sends over a topic's partitions claims them in one entry, not one per partition.
     * The claim on the {@code destination} itself is not added: its log order implies it, and the
     * stamp drops every claim on the destination anyway (§6.1).
     */
    static void claimOwnSends(VectorClock stamp, UUID self, NodeState state, Channel destination) {
        for (TopicSends t : state.topicSends()) {
            boolean destinationSent = destination.sameTopic(t.topic) && state.sentThisIncarnation(destination, t.topic);
            t.claim(stamp, destination, destinationSent, state.ownTopicKey(t.topic, self), self);
        }
    }


    /**
     * An echo of this sender's own claim becomes the offset claim that covers it: a prior
     * incarnation's send is covered by the end-offset seed (or a former sink's heal). This
     * incarnation's sends need no case of their own: the offset claim written here is one the stamp
     * already holds (own outputs and carried ancestry are part of its base), and
     * {@link #claimOwnSends} then claims them again by sequence, at the latest one issued. A
     * whole-topic echo is dropped for the same reasons (no offset claim is ever keyed by a whole
     * topic, so it takes the last branch): the seed covers every partition an earlier incarnation
     * sent to, and the fresh claims this incarnation's.
     */
    private static void normalizeOwn(VectorClock stamp, NodeState state, SeqKey k) {
        Channel c = k.channel();
        long covered = state.ownOutput(c);
        if (covered == VectorClock.NOTHING) {
            covered = state.carried(c);
        }
        if (covered == VectorClock.NOTHING) {
            stamp.removeSeq(k);
        } else {
            stamp.normalizeSeq(k, covered);
        }
    }
}
