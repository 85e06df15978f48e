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
 * wait (custody carries them, §3.7). A whole-topic sequence claim is a claim on every consumed
 * partition of its topic; where the sender's mark there does not meet it, a probe of the
 * partition's high watermark can (§3.9).
 */
final class Gate {

    private Gate() {
    }

    /**
     * What decides a whole-topic claim on a consumed partition that the sender's mark there does not
     * meet (protocol.md §3.9): a probe of the partition read after the head arrived. Asking it is
     * also asking for such a probe when there is none.
     */
    interface Probed {

        /** No probes: a whole-topic claim is met by marks alone (for rigs and benchmarks without a node). */
        Probed NONE = (partition, sender, seq, own, offset) -> false;

        /**
         * Whether every record {@code sender} sent to {@code partition} with a sequence at or below
         * {@code seq} is known delivered, for a head at {@code offset} of {@code own}.
         */
        boolean delivered(Channel partition, UUID sender, long seq, Channel own, long offset);
    }

    static boolean deliverable(Channel own, VectorClock claims, Channel[] consumed, VectorClock frontier,
            Map<SeqKey, ProtocolStore.Mark> marks) {
        return deliverable(own, VectorClock.NOTHING, claims, consumed, frontier, marks, Probed.NONE);
    }

    /** The gate for a head at {@code offset} of {@code own}. */
    static boolean deliverable(Channel own, long offset, VectorClock claims, Channel[] consumed, VectorClock frontier,
            Map<SeqKey, ProtocolStore.Mark> marks, Probed probed) {
        for (int i = 0; i < claims.offsetCount(); i++) {
            Channel c = claims.channel(i);
            if (!c.equals(own) && consumes(consumed, c) && frontier.offset(c) < claims.offsetAt(i)) {
                return false;
            }
        }
        for (int i = 0; i < claims.seqCount(); i++) {
            SeqKey k = claims.seqKey(i);
            Channel c = k.channel();
            if (c.isWholeTopic()) {
                if (!wholeTopicMet(own, offset, k, claims.seqAt(i), consumed, marks, probed)) {
                    return false;
                }
            } else if (!c.equals(own) && consumes(consumed, c)) {
                ProtocolStore.Mark mark = marks.get(k);
                if (mark == null || mark.seq() < claims.seqAt(i)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * A whole-topic claim, as a claim on each consumed partition of its topic but the head's own:
     * met there by the sender's mark at or above it, else by a probe (§3.9).
     */
    private static boolean wholeTopicMet(Channel own, long offset, SeqKey k, long seq, Channel[] consumed,
            Map<SeqKey, ProtocolStore.Mark> marks, Probed probed) {
        boolean met = true;
        for (Channel x : consumed) {
            if (x.sameTopic(k.channel()) && !x.equals(own)) {
                ProtocolStore.Mark mark = marks.get(new SeqKey(x, k.sender()));
                // no early return: every partition that needs a probe asks for it in this one pass
                met &= mark != null && mark.seq() >= seq || probed.delivered(x, k.sender(), seq, own, offset);
            }
        }
        return met;
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
            for (Channel x : consumed) {
                boolean claimed = k.channel().isWholeTopic() ? x.sameTopic(k.channel()) : x.equals(k.channel());
                if (claimed && !x.equals(own)) {
                    ProtocolStore.Mark mark = marks.get(new SeqKey(x, k.sender()));
                    if (mark == null) {
                        out.add(new Unmet(HeldRecord.Diagnosis.SENDER_UNSEEN, x, k.sender(), s, VectorClock.NOTHING));
                    } else if (mark.seq() < s) {
                        out.add(new Unmet(HeldRecord.Diagnosis.SENDER_BEHIND, x, k.sender(), s, mark.seq()));
                    }
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
