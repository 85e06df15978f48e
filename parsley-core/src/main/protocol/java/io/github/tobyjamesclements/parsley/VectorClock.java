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
    private static final UUID HIGHEST = new UUID(Long.MAX_VALUE, Long.MAX_VALUE);

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
        if (offset < 0) {
            throw new IllegalArgumentException("Offset claim must be >= 0; channel=" + channel + ", offset=" + offset);
        }
        offsets.merge(channel, offset, Math::max);
        return this;
    }

    /** Raises the sequence claim on {@code (channel, sender)} to at least {@code seq}. */
    VectorClock advanceSeq(SeqKey key, long seq) {
        if (seq < 0) {
            throw new IllegalArgumentException("Sequence claim must be >= 0; key=" + key + ", seq=" + seq);
        }
        seqs.merge(key, seq, Math::max);
        return this;
    }

    /** Pointwise max over both kinds of claim. */
    VectorClock mergeMax(VectorClock other) {
        if (other == this) {
            return this;
        }
        other.offsets.forEach((c, n) -> offsets.merge(c, n, Math::max));
        other.seqs.forEach((k, s) -> seqs.merge(k, s, Math::max));
        return this;
    }

    /** Merges only the offset claims of {@code other}. */
    VectorClock mergeOffsets(VectorClock other) {
        other.offsets.forEach((c, n) -> offsets.merge(c, n, Math::max));
        return this;
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
        seqs.subMap(new SeqKey(channel, LOWEST), true, new SeqKey(channel, HIGHEST), true).clear();
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

    /** Read-only view of the offset claims, in channel order. */
    NavigableMap<Channel, Long> offsets() {
        return Collections.unmodifiableNavigableMap(offsets);
    }

    /** Read-only view of the sequence claims, in key order. */
    NavigableMap<SeqKey, Long> seqs() {
        return Collections.unmodifiableNavigableMap(seqs);
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
