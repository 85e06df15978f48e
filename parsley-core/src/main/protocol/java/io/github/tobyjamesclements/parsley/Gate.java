package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The delivery gate (protocol.md §3.2) and its diagnosis (§13.3): a head is deliverable when every
 * claim on another consumed channel is met by the local frontier or delivered-sequence mark.
 * Entries on the head's own channel are normalised away; entries on unconsumed channels impose no
 * wait (custody carries them, §3.7).
 */
final class Gate {

    private Gate() {
    }

    static boolean deliverable(Channel own, VectorClock claims, Channel[] consumed, VectorClock frontier,
            Map<SeqKey, ProtocolStore.Mark> marks) {
        for (int i = 0; i < claims.offsetCount(); i++) {
            Channel c = claims.channel(i);
            if (!c.equals(own) && consumes(consumed, c) && frontier.offset(c) < claims.offsetAt(i)) {
                return false;
            }
        }
        for (int i = 0; i < claims.seqCount(); i++) {
            SeqKey k = claims.seqKey(i);
            Channel c = k.channel();
            if (!c.equals(own) && consumes(consumed, c)) {
                ProtocolStore.Mark mark = marks.get(k);
                if (mark == null || mark.seq() < claims.seqAt(i)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Whether {@code c} is one of a node's {@code consumed} channels. A scan, by reference first
     * ({@link Channel#equals}): a task consumes one partition of each of a few topics, and the scan
     * costs less per claim than a hash set's lookup, which hashes the topic id on every call.
     */
    static boolean consumes(Channel[] consumed, Channel c) {
        for (Channel x : consumed) {
            if (x.equals(c)) {
                return true;
            }
        }
        return false;
    }

    /** Every unmet claim of a head, classified; empty when the head is deliverable. */
    static List<Unmet> unmet(Channel own, VectorClock claims, Set<Channel> consumed, VectorClock frontier,
            Map<SeqKey, ProtocolStore.Mark> marks, Map<Channel, Long> positionKnown) {
        List<Unmet> out = new ArrayList<>();
        claims.offsets().forEach((c, n) -> {
            long local = frontier.offset(c);
            if (!c.equals(own) && consumed.contains(c) && local < n) {
                long position = positionKnown.getOrDefault(c, VectorClock.NOTHING);
                HeldRecord.Diagnosis d = position <= n ? HeldRecord.Diagnosis.NOT_FETCHED
                        : HeldRecord.Diagnosis.HELD_UPSTREAM;
                out.add(new Unmet(d, c, null, n, local));
            }
        });
        claims.seqs().forEach((k, s) -> {
            if (!k.channel().equals(own) && consumed.contains(k.channel())) {
                ProtocolStore.Mark mark = marks.get(k);
                if (mark == null) {
                    out.add(new Unmet(HeldRecord.Diagnosis.SENDER_UNSEEN, k.channel(), k.sender(), s, VectorClock.NOTHING));
                } else if (mark.seq() < s) {
                    out.add(new Unmet(HeldRecord.Diagnosis.SENDER_BEHIND, k.channel(), k.sender(), s, mark.seq()));
                }
            }
        });
        return out;
    }

    /** Every held head of a consumed channel with its unmet claims; heads with none are omitted (§13.3). */
    static List<HeadExplanation> explain(Set<Channel> consumed, NodeState state) {
        List<HeadExplanation> out = new ArrayList<>();
        for (Channel c : consumed) {
            HeldEntry head = state.head(c);
            if (head != null) {
                List<Unmet> unmet = unmet(c, head.clock(), consumed, state.frontierClock(), state.marks(),
                        state.positionsKnown());
                if (!unmet.isEmpty()) {
                    out.add(new HeadExplanation(c, head.offset(), state.held(c), unmet));
                }
            }
        }
        return out;
    }

    /** One unmet claim: the claimed channel (and sender for a sequence claim), the claim, and what is local. */
    record Unmet(HeldRecord.Diagnosis diagnosis, Channel channel, UUID sender, long claimed, long local) {
    }

    /** A held head and its unmet claims. */
    record HeadExplanation(Channel channel, long offset, int queued, List<Unmet> unmet) {
    }
}
