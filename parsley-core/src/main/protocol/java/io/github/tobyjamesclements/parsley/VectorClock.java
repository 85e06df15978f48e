package io.github.tobyjamesclements.parsley;

import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A dependency clock with two kinds of claim (protocol.md §1.2): offset claims per channel and
 * sequence claims per (channel, sender). Absent entries claim nothing ({@link #NOTHING}).
 *
 * <p>Mutable and not thread-safe; every mutation only raises entries, except the explicit
 * removals {@link #normalizeSeq}, {@link #removeSeq}, {@link #removeChannel} and {@link #truncateAtOrBelow}. Iteration
 * is in channel order, which the wire format and the cascade rely on.
 */
final class VectorClock {

    /** The watermark of an absent entry. */
    static final long NOTHING = -1L;

    private static final UUID LOWEST = new UUID(Long.MIN_VALUE, Long.MIN_VALUE);

    private final TreeMap<Channel, Long> offsets = new TreeMap<>();
    private final TreeMap<SeqKey, Long> seqs = new TreeMap<>();

    VectorClock() {
    }

    static VectorClock copyOf(VectorClock other) {
        VectorClock copy = new VectorClock();
        copy.offsets.putAll(other.offsets);
        copy.seqs.putAll(other.seqs);
        return copy;
    }

    /** Raises the offset claim on {@code channel} to at least {@code offset}. */
    VectorClock advanceTo(Channel channel, long offset) {
        raiseOffset(channel, offset);
        return this;
    }

    /** {@link #advanceTo}, keeping the caller's box: the stamp takes the frontier's claims per send. */
    void raiseOffset(Channel channel, Long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("Offset claim must be >= 0; channel=" + channel + ", offset=" + offset);
        }
        Long current = offsets.get(channel);
        if (current == null || current < offset) {
            offsets.put(channel, offset);
        }
    }

    /** Raises the sequence claim on {@code (channel, sender)} to at least {@code seq}. */
    VectorClock advanceSeq(SeqKey key, long seq) {
        if (seq < 0) {
            throw new IllegalArgumentException("Sequence claim must be >= 0; key=" + key + ", seq=" + seq);
        }
        Long current = seqs.get(key);
        if (current == null || current < seq) {
            seqs.put(key, seq);
        }
        return this;
    }

    /** Pointwise max over both kinds of claim. */
    VectorClock mergeMax(VectorClock other) {
        raiseTo(other);
        return this;
    }

    /**
     * Pointwise max over both kinds of claim.
     *
     * @return whether any claim rose, so a caller can skip persisting an unchanged clock
     */
    boolean raiseTo(VectorClock other) {
        if (other == this) {
            return false;
        }
        boolean offsetsRose = raise(offsets, other.offsets);
        return raise(seqs, other.seqs) || offsetsRose;
    }

    /** Merges only the offset claims of {@code other}. */
    VectorClock mergeOffsets(VectorClock other) {
        raise(offsets, other.offsets);
        return this;
    }

    /**
     * Raises {@code into} to {@code from} pointwise. Claims are shared, not re-boxed: a merge that
     * raises nothing allocates nothing, which matters because a node merges every received clock.
     */
    private static <K> boolean raise(TreeMap<K, Long> into, TreeMap<K, Long> from) {
        if (into.isEmpty()) {
            // a copy: TreeMap builds from a sorted map of its own order in one linear pass
            into.putAll(from);
            return !from.isEmpty();
        }
        boolean rose = false;
        for (Map.Entry<K, Long> e : from.entrySet()) {
            Long current = into.get(e.getKey());
            if (current == null || current < e.getValue()) {
                into.put(e.getKey(), e.getValue());
                rose = true;
            }
        }
        return rose;
    }

    /**
     * Whether every offset claim of {@code other} is matched or exceeded here. Sequence claims
     * are never compared clock to clock; the gate decides them against delivered marks.
     */
    boolean dominates(VectorClock other) {
        for (Map.Entry<Channel, Long> e : other.offsets.entrySet()) {
            if (offset(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** Replaces a sequence claim by an offset claim on its channel (protocol.md §6.3). */
    void normalizeSeq(SeqKey key, long offset) {
        seqs.remove(key);
        advanceTo(key.channel(), offset);
    }

    void removeSeq(SeqKey key) {
        seqs.remove(key);
    }

    /** Removes every claim on {@code channel}, offset and sequence (protocol.md §6.1: the destination's own). */
    void removeChannel(Channel channel) {
        offsets.remove(channel);
        if (seqs.isEmpty()) {
            return;
        }
        // every stamp passes here (its own send's claim on the destination): walk the channel's
        // run by key, without the upper bound, sub-map view and iterators a ranged clear builds
        SeqKey k = seqs.ceilingKey(new SeqKey(channel, LOWEST));
        while (k != null && k.channel().equals(channel)) {
            seqs.remove(k);
            k = seqs.higherKey(k);
        }
    }

    /**
     * Removes every offset claim at or below the bound's claim on the same channel; sequence
     * claims are never truncated (protocol.md §8.1).
     *
     * @return whether anything was removed
     */
    boolean truncateAtOrBelow(VectorClock stability) {
        return offsets.entrySet().removeIf(e -> e.getValue() <= stability.offset(e.getKey()));
    }

    long offset(Channel channel) {
        Long n = offsets.get(channel);
        return n == null ? NOTHING : n;
    }

    long seq(SeqKey key) {
        Long s = seqs.get(key);
        return s == null ? NOTHING : s;
    }

    /**
     * The offset claims themselves, unwrapped, for the gate, which runs per head and pass and
     * must not pay for views. Callers only read.
     */
    Iterable<Map.Entry<Channel, Long>> offsetClaims() {
        return offsets.entrySet();
    }

    /** The sequence claims themselves, unwrapped, for the gate; callers only read. */
    Iterable<Map.Entry<SeqKey, Long>> seqClaims() {
        return seqs.entrySet();
    }

    /** Read-only view of the offset claims, in channel order. */
    NavigableMap<Channel, Long> offsets() {
        return Collections.unmodifiableNavigableMap(offsets);
    }

    /** Read-only view of the sequence claims, in key order. */
    NavigableMap<SeqKey, Long> seqs() {
        return Collections.unmodifiableNavigableMap(seqs);
    }

    int offsetCount() {
        return offsets.size();
    }

    int seqCount() {
        return seqs.size();
    }

    boolean isEmpty() {
        return offsets.isEmpty() && seqs.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VectorClock other && offsets.equals(other.offsets) && seqs.equals(other.seqs);
    }

    @Override
    public int hashCode() {
        return Objects.hash(offsets, seqs);
    }

    @Override
    public String toString() {
        return "{offsets=" + offsets + ", seqs=" + seqs + "}";
    }
}
