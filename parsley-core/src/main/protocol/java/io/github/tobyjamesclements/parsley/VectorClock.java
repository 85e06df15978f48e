package io.github.tobyjamesclements.parsley;

import java.util.Collections;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A dependency clock with two kinds of claim (protocol.md §1.2): offset claims per channel and
 * sequence claims per (channel, sender). Absent entries claim nothing ({@link #NOTHING}).
 *
 * <p>Mutable and not thread-safe; every mutation only raises entries, except the explicit
 * removals {@link #normalizeSeq}, {@link #removeSeq}, {@link #removeChannel} and {@link #truncateAtOrBelow}.
 * Claims are kept in key order, which the wire format and the cascade rely on, and are read by
 * index ({@link #channel(int)}, {@link #offsetAt(int)}, {@link #seqKey(int)}, {@link #seqAt(int)}).
 *
 * <p>Each kind of claim is a pair of sorted primitive-backed arrays ({@link SortedClaims}), not a
 * tree map: a clock claims a handful of channels, every record decodes one and every send builds
 * one, and arrays make those a few copies instead of a tree node and a boxed long per claim.
 */
final class VectorClock {

    /** The watermark of an absent entry. */
    static final long NOTHING = -1L;

    private final SortedClaims<Channel> offsets;
    private final SortedClaims<SeqKey> seqs;

    VectorClock() {
        this(new SortedClaims<>(), new SortedClaims<>());
    }

    private VectorClock(SortedClaims<Channel> offsets, SortedClaims<SeqKey> seqs) {
        this.offsets = offsets;
        this.seqs = seqs;
    }

    static VectorClock copyOf(VectorClock other) {
        return copyOf(other, 0);
    }

    /** A copy with room for {@code moreOffsets} further offset claims, so a caller's raises need not grow it. */
    static VectorClock copyOf(VectorClock other, int moreOffsets) {
        return new VectorClock(other.offsets.copy(moreOffsets), other.seqs.copy(0));
    }

    /**
     * Makes this clock equal to {@code other}, in this clock's own arrays where they have room (for
     * {@code moreOffsets} further offset claims too): a clock rebuilt per send without a new one.
     */
    VectorClock setTo(VectorClock other, int moreOffsets) {
        if (other != this) {
            offsets.setTo(other.offsets, moreOffsets);
            seqs.setTo(other.seqs, 0);
        }
        return this;
    }

    /** Raises the offset claim on {@code channel} to at least {@code offset}. */
    VectorClock advanceTo(Channel channel, long offset) {
        raiseOffset(channel, offset);
        return this;
    }

    /** Raises the offset claim on {@code channel} to at least {@code offset}: {@link #advanceTo} without the chaining. */
    void raiseOffset(Channel channel, long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("Offset claim must be >= 0; channel=" + channel + ", offset=" + offset);
        }
        offsets.raise(channel, offset);
    }

    /**
     * Raises the offset claim on {@code channel} by one, an absent claim to 0, with one lookup.
     *
     * @return the raised claim, or {@link #NOTHING} (nothing raised) when it is {@code Long.MAX_VALUE}
     */
    long incrementOffset(Channel channel) {
        return offsets.increment(channel);
    }

    /** Raises the sequence claim on {@code (channel, sender)} to at least {@code seq}. */
    VectorClock advanceSeq(SeqKey key, long seq) {
        if (seq < 0) {
            throw new IllegalArgumentException("Sequence claim must be >= 0; key=" + key + ", seq=" + seq);
        }
        seqs.raise(key, seq);
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
        boolean offsetsRose = offsets.raiseAll(other.offsets);
        return seqs.raiseAll(other.seqs) || offsetsRose;
    }

    /** Merges only the offset claims of {@code other}. */
    VectorClock mergeOffsets(VectorClock other) {
        if (other != this) {
            offsets.raiseAll(other.offsets);
        }
        return this;
    }

    /**
     * Whether every offset claim of {@code other} is matched or exceeded here. Sequence claims
     * are never compared clock to clock; the gate decides them against delivered marks.
     */
    boolean dominates(VectorClock other) {
        for (int i = 0; i < other.offsets.size(); i++) {
            if (offset(other.offsets.key(i)) < other.offsets.value(i)) {
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
        // sequence keys order by channel first, so the channel's claims are one run
        int from = 0;
        while (from < seqs.size() && seqs.key(from).channel().compareTo(channel) < 0) {
            from++;
        }
        int to = from;
        while (to < seqs.size() && seqs.key(to).channel().equals(channel)) {
            to++;
        }
        if (to > from) {
            seqs.removeRange(from, to);
        }
    }

    /**
     * Removes every offset claim at or below the bound's claim on the same channel; sequence
     * claims are never truncated (protocol.md §8.1).
     *
     * @return whether anything was removed
     */
    boolean truncateAtOrBelow(VectorClock stability) {
        return offsets.removeAtOrBelow(stability.offsets);
    }

    long offset(Channel channel) {
        return offsets.get(channel);
    }

    long seq(SeqKey key) {
        return seqs.get(key);
    }

    /** The {@code i}-th offset claim's channel, in channel order; {@code 0 <= i < offsetCount()}. */
    Channel channel(int i) {
        return offsets.key(i);
    }

    /** The {@code i}-th offset claim's watermark. */
    long offsetAt(int i) {
        return offsets.value(i);
    }

    /** The {@code i}-th sequence claim's key, in key order; {@code 0 <= i < seqCount()}. */
    SeqKey seqKey(int i) {
        return seqs.key(i);
    }

    /** The {@code i}-th sequence claim's watermark. */
    long seqAt(int i) {
        return seqs.value(i);
    }

    /** A read-only copy of the offset claims, in channel order, for diagnostics and tests. */
    NavigableMap<Channel, Long> offsets() {
        return Collections.unmodifiableNavigableMap(offsets.toMap(new TreeMap<>()));
    }

    /** A read-only copy of the sequence claims, in key order, for diagnostics and tests. */
    NavigableMap<SeqKey, Long> seqs() {
        return Collections.unmodifiableNavigableMap(seqs.toMap(new TreeMap<>()));
    }

    int offsetCount() {
        return offsets.size();
    }

    int seqCount() {
        return seqs.size();
    }

    boolean isEmpty() {
        return offsets.size() == 0 && seqs.size() == 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VectorClock other && offsets.equals(other.offsets) && seqs.equals(other.seqs);
    }

    @Override
    public int hashCode() {
        return 31 * offsets.hashCode() + seqs.hashCode();
    }

    @Override
    public String toString() {
        return "{offsets=" + offsets.toMap(new TreeMap<>()) + ", seqs=" + seqs.toMap(new TreeMap<>()) + "}";
    }
}
