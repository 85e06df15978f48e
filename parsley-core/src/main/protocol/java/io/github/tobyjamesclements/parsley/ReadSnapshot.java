package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * What a node's state reflects, taken before a commit, for reads of that state (protocol.md §17):
 * per consumed channel the frontier (every record at or below it delivered), per consumed channel
 * and sender the delivered-sequence mark, and the ancestry of what it delivered on channels it does
 * not consume (its channel clocks and carried ancestry there): a session that read the state saw
 * those records' causes too, so a later read elsewhere must reflect them. Immutable, so a reader on
 * another thread may hold it while the node steps on.
 *
 * <p>The read gate is the delivery gate without a head (§17.2): a token's claims are restricted
 * to the consumed channels, then the snapshot must dominate them. A whole-topic sequence claim is
 * a claim on each consumed partition of its topic. A sequence claim is met on a partition by the
 * sender's mark or, like a probe of §3.9, by a frontier at or past the partition's end offset read
 * after the token existed: the only way for a node that joined the partition after the sender's
 * records there, and so never delivers them and has no mark of the sender.
 */
final class ReadSnapshot {

    private final Channel[] consumed;
    private final VectorClock frontier;
    private final Map<SeqKey, Long> marks;
    private final VectorClock ancestry;

    private ReadSnapshot(Channel[] consumed, VectorClock frontier, Map<SeqKey, Long> marks, VectorClock ancestry) {
        this.consumed = consumed;
        this.frontier = frontier;
        this.marks = marks;
        this.ancestry = ancestry;
    }

    /** A copy of what {@code state} reflects on the {@code consumed} channels. */
    static ReadSnapshot of(Channel[] consumed, NodeState state) {
        VectorClock frontier = new VectorClock();
        for (Channel c : consumed) {
            long f = state.frontier(c);
            if (f != VectorClock.NOTHING) {
                frontier.raiseOffset(c, f);
            }
        }
        Map<SeqKey, Long> marks = new HashMap<>();
        state.marks().forEach((k, m) -> {
            if (Gate.consumes(consumed, k.channel())) {
                marks.put(k, m.seq());
            }
        });
        return new ReadSnapshot(consumed.clone(), frontier, Collections.unmodifiableMap(marks),
                ancestry(consumed, state));
    }

    /**
     * The claims of the channel clocks and carried ancestry that the frontier and marks do not
     * make: those on channels the node does not consume, and whole-topic claims. On consumed
     * channels the frontier and marks say exactly what was delivered; the clocks there may hold
     * claims of records still held, which the state does not reflect.
     */
    private static VectorClock ancestry(Channel[] consumed, NodeState state) {
        VectorClock all = state.carried();
        state.channelClocks().values().forEach(all::mergeMax);
        VectorClock out = new VectorClock();
        all.offsets().forEach((c, n) -> {
            if (!Gate.consumes(consumed, c)) {
                out.raiseOffset(c, n);
            }
        });
        all.seqs().forEach((k, s) -> {
            if (!Gate.consumes(consumed, k.channel())) {
                out.advanceSeq(k, s);
            }
        });
        return out;
    }

    /** The frontier on {@code c}, or {@link VectorClock#NOTHING}. */
    long frontier(Channel c) {
        return frontier.offset(c);
    }

    /**
     * The claims of what this state reflects, the token of a read answered from it: its frontiers
     * as offset claims, its marks as sequence claims, and the ancestry of its records elsewhere.
     */
    VectorClock reflects() {
        VectorClock out = VectorClock.copyOf(ancestry).mergeMax(frontier);
        marks.forEach(out::advanceSeq);
        return out;
    }

    /**
     * The consumed partitions where a sequence claim of {@code token} is not met by the sender's
     * mark: a read decides them by the partition's end offset (§17.2).
     */
    Set<Channel> probesWanted(VectorClock token) {
        Set<Channel> out = new TreeSet<>();
        for (int i = 0; i < token.seqCount(); i++) {
            SeqKey k = token.seqKey(i);
            for (Channel x : consumed) {
                if (claims(k, x) && mark(x, k.sender()) < token.seqAt(i)) {
                    out.add(x);
                }
            }
        }
        return out;
    }

    /** Whether a sequence claim keyed {@code k} asks something of consumed partition {@code x}. */
    private static boolean claims(SeqKey k, Channel x) {
        return k.channel().isWholeTopic() ? x.sameTopic(k.channel()) : x.equals(k.channel());
    }

    /**
     * Every claim of {@code token} on a consumed channel that this state does not meet; empty when
     * a read with the token may be answered from it. {@code endOffsets} are end offsets of consumed
     * partitions read after the token was made (those {@link #probesWanted} names, or none).
     */
    List<Gate.Unmet> unmet(VectorClock token, Map<Channel, Long> endOffsets) {
        List<Gate.Unmet> out = new ArrayList<>();
        for (int i = 0; i < token.offsetCount(); i++) {
            Channel c = token.channel(i);
            long local = frontier.offset(c);
            if (Gate.consumes(consumed, c) && local < token.offsetAt(i)) {
                out.add(new Gate.Unmet(HeldRecord.Diagnosis.NOT_FETCHED, c, null, token.offsetAt(i), local));
            }
        }
        for (int i = 0; i < token.seqCount(); i++) {
            SeqKey k = token.seqKey(i);
            long seq = token.seqAt(i);
            for (Channel x : consumed) {
                long mark = mark(x, k.sender());
                if (claims(k, x) && mark < seq && !probedPast(x, endOffsets)) {
                    HeldRecord.Diagnosis d = mark == VectorClock.NOTHING ? HeldRecord.Diagnosis.SENDER_UNSEEN
                            : HeldRecord.Diagnosis.SENDER_BEHIND;
                    out.add(new Gate.Unmet(d, x, k.sender(), seq, mark));
                }
            }
        }
        return out;
    }

    /**
     * Whether every record of {@code x} below its end offset, read after the token existed, is
     * delivered (or below where this node started on {@code x}): then so is every record a sequence
     * claim of the token names there, since the claimed sends were committed before the token was
     * made (§17.2).
     */
    private boolean probedPast(Channel x, Map<Channel, Long> endOffsets) {
        Long end = endOffsets.get(x);
        return end != null && frontier.offset(x) >= end - 1;
    }

    private long mark(Channel c, UUID sender) {
        Long m = marks.get(new SeqKey(c, sender));
        return m == null ? VectorClock.NOTHING : m;
    }
}
