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
            } else {
                ProtocolStore.Mark mark = state.mark(k);
                if (mark != null && mark.seq() >= s) {
                    stamp.normalizeSeq(k, mark.offset());
                    changed++;
                }
            }
        }
        return changed;
    }

    /**
     * Adds this incarnation's own sends as sequence claims (§6.2): a send above the baseline is not
     * yet covered by any offset this node knows, so a stamp names it by sequence. The claim on the
     * {@code destination} itself is not added: its log order implies it, and the stamp drops every
     * claim on the destination anyway (§6.1).
     */
    static void claimOwnSends(VectorClock stamp, UUID self, NodeState state, Channel destination) {
        VectorClock sent = state.sendSeqClock();
        for (int i = 0; i < sent.offsetCount(); i++) {
            Channel c = sent.channel(i);
            long issued = sent.offsetAt(i);
            if (!c.equals(destination) && issued > state.baselineSeq(c)) {
                stamp.advanceSeq(state.ownSendKeyAt(i, self), issued);
            }
        }
    }

    /**
     * An echo of this sender's own claim becomes the offset claim that covers it: a prior
     * incarnation's send is covered by the end-offset seed (or a former sink's heal). This
     * incarnation's sends need no case of their own: the offset claim written here is one the stamp
     * already holds (own outputs and carried ancestry are part of its base), and
     * {@link #claimOwnSends} then claims them again by sequence, at the latest one issued.
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
