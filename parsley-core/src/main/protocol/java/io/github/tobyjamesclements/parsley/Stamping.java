package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Normalisation of sequence claims at the stamping site (protocol.md §6.3): claims this node can
 * resolve become offset claims, so sequence claims do not travel far.
 */
final class Stamping {

    private Stamping() {
    }

    /**
     * Rewrites the merged stamp's sequence claims in place.
     *
     * @return how many claims were rewritten or dropped
     */
    static int normalize(VectorClock stamp, CausalNode node) {
        int changed = 0;
        List<Map.Entry<SeqKey, Long>> claims = new ArrayList<>(stamp.seqs().entrySet());
        for (Map.Entry<SeqKey, Long> claim : claims) {
            SeqKey k = claim.getKey();
            long s = claim.getValue();
            if (k.sender().equals(node.config.senderId())) {
                normalizeOwn(stamp, node, k, s);
                changed++;
            } else {
                ProtocolStore.Mark mark = node.marks.get(k);
                if (mark != null && mark.seq() >= s) {
                    stamp.normalizeSeq(k, mark.offset());
                    changed++;
                }
            }
        }
        return changed;
    }

    /**
     * An echo of this sender's own claim: a prior incarnation's is covered by the end-offset seed
     * (or a former sink's heal); this incarnation's is dominated by the fresh self-claim added next.
     */
    private static void normalizeOwn(VectorClock stamp, CausalNode node, SeqKey k, long s) {
        Channel c = k.channel();
        if (s > node.baselineSeq.getOrDefault(c, VectorClock.NOTHING)) {
            stamp.removeSeq(k);
            return;
        }
        long covered = node.ownOutputs.offset(c);
        if (covered == VectorClock.NOTHING) {
            covered = node.carried.offset(c);
        }
        if (covered == VectorClock.NOTHING) {
            stamp.removeSeq(k);
        } else {
            stamp.normalizeSeq(k, covered);
        }
    }
}
