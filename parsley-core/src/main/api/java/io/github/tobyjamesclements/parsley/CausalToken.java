package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The causal past of something a client did or saw: every record that may have caused it, named
 * by claims on Kafka's coordinates. A {@link Message#token() delivered message's} token names the
 * record and its causes; {@link CausalClock#token()} names what a plain client observed and
 * produced. Pass a token on (its {@link #toString() text} fits a URL, an HTTP header or a JSON
 * string, and {@link #parse} reads it back) to ask for a view that includes that past.
 *
 * <p>A token holds two kinds of claim, as a record's clock does (docs/protocol.md §1.2): an
 * <em>offset claim</em> on a partition of a topic (every record at or below the offset may be a
 * cause) and a <em>sequence claim</em> of one stage task on a partition or on a whole topic (every
 * record it sent there with a send sequence at or below the watermark may be a cause). Topics are
 * named by their broker-assigned ids, never their names. Claims are ordinary numbers: a token is
 * not signed, so it proves nothing about who made it.
 *
 * <p>Immutable and thread-safe; equal when its claims are equal, and then its text is equal too.
 * Never null where Parsley returns one; {@link #empty()} claims nothing.
 */
public final class CausalToken {

    private static final CausalToken EMPTY = new CausalToken(new Claims(List.of(), List.of()));

    private static final Comparator<OffsetClaim> OFFSET_KEY = Comparator.comparing(OffsetClaim::topicId)
            .thenComparingInt(OffsetClaim::partition);
    private static final Comparator<SequenceClaim> SEQUENCE_KEY = Comparator.comparing(SequenceClaim::topicId)
            .thenComparingInt(SequenceClaim::partition).thenComparing(SequenceClaim::sender);

    /**
     * The claims ({@link Claims}), or for a deferred token the {@code Supplier} that computes them:
     * one field, so that the token the host attaches to every delivered message stays small.
     */
    private final Object state;
    /** A deferred token's claims, once its source has computed them. */
    private volatile Claims computed;

    private CausalToken(Object state) {
        this.state = state;
    }

    /**
     * The token that claims nothing: the past of something with no known causes.
     *
     * @return the empty token, never null
     */
    public static CausalToken empty() {
        return EMPTY;
    }

    /**
     * Reads a token's text, as {@link #toString()} wrote it.
     *
     * @param text the token's text, never null
     * @return the token, never null
     * @throws IllegalArgumentException if {@code text} is not a token's text, names a version this
     *     build does not read, is cut short, runs on past its claims, names a negative offset or
     *     sequence, or is in any other form than the one {@link #toString()} writes; the message
     *     says which
     * @throws NullPointerException if {@code text} is null
     */
    public static CausalToken parse(String text) {
        return TokenCodec.parse(Objects.requireNonNull(text, "text"));
    }

    /**
     * A token of these claims: the highest value per key is kept, and the claims are sorted, so
     * equal pasts give equal tokens and equal text.
     */
    static CausalToken of(Collection<OffsetClaim> offsetClaims, Collection<SequenceClaim> sequenceClaims) {
        List<OffsetClaim> o = normalised(offsetClaims, OFFSET_KEY, Comparator.comparingLong(OffsetClaim::offset));
        List<SequenceClaim> s = normalised(sequenceClaims, SEQUENCE_KEY,
                Comparator.comparingLong(SequenceClaim::seq));
        return o.isEmpty() && s.isEmpty() ? EMPTY : new CausalToken(new Claims(o, s));
    }

    /**
     * A token whose claims {@code source} computes on first use of any method, once: the host
     * attaches one to every delivered message and pays for it only if the logic asks. The source
     * must stay valid for as long as the token lives (the token keeps it); it runs under its own
     * lock, so concurrent first uses wait for one answer.
     */
    static CausalToken deferred(Supplier<CausalToken> source) {
        return new CausalToken(Objects.requireNonNull(source, "source"));
    }

    /**
     * The past of both tokens: every claim of either, at the higher value where both claim the
     * same key. Commutative, associative and idempotent; it never drops a claim.
     *
     * @param other the other token, never null
     * @return the merged token, never null; this or {@code other} when one already includes the other
     * @throws NullPointerException if {@code other} is null
     */
    public CausalToken merge(CausalToken other) {
        Objects.requireNonNull(other, "other");
        if (includes(other)) {
            return this;
        }
        if (other.includes(this)) {
            return other;
        }
        List<OffsetClaim> o = new ArrayList<>(claims().offsets());
        o.addAll(other.claims().offsets());
        List<SequenceClaim> s = new ArrayList<>(claims().sequences());
        s.addAll(other.claims().sequences());
        return of(o, s);
    }

    /**
     * Whether this token's past includes {@code other}'s: every claim of {@code other} has a claim
     * of this token on the same key (topic, partition or whole topic, and for a sequence claim the
     * same sender) at a value at least as high. Claims of different keys are not compared, so a
     * whole-topic claim does not stand in for a partition claim here.
     *
     * @param other the other token, never null
     * @return true when {@code other} claims nothing this token does not
     * @throws NullPointerException if {@code other} is null
     */
    public boolean includes(CausalToken other) {
        Claims a = claims();
        Claims b = Objects.requireNonNull(other, "other").claims();
        return a == b || covers(a.offsets(), b.offsets(), OFFSET_KEY, OffsetClaim::offset)
                && covers(a.sequences(), b.sequences(), SEQUENCE_KEY, SequenceClaim::seq);
    }

    /**
     * Whether this token claims nothing.
     *
     * @return true for a token equal to {@link #empty()}
     */
    public boolean isEmpty() {
        return claims().offsets().isEmpty() && claims().sequences().isEmpty();
    }

    /** The offset claims, sorted by topic id (signed {@link UUID#compareTo}) and partition; unmodifiable. */
    List<OffsetClaim> offsetClaims() {
        return claims().offsets();
    }

    /** The sequence claims, sorted by topic id, partition (the whole topic first) and sender; unmodifiable. */
    List<SequenceClaim> sequenceClaims() {
        return claims().sequences();
    }

    /**
     * Equal when both tokens claim the same values on the same keys.
     *
     * @param o any object, may be null
     * @return whether {@code o} is a token of the same claims
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof CausalToken other && claims().equals(other.claims());
    }

    @Override
    public int hashCode() {
        return claims().hashCode();
    }

    /**
     * The token's text: {@code 1.} (the format's version) followed by its claims in base64url
     * without padding, so it may go into a URL, a header or a file as is. {@link #parse} reads it.
     *
     * @return the text, never null
     */
    @Override
    public String toString() {
        return TokenCodec.text(this);
    }

    /** The claims: this token's own, or those its deferred source computes here on first use. */
    @SuppressWarnings("unchecked")
    private Claims claims() {
        if (state instanceof Claims own) {
            return own;
        }
        Claims known = computed;
        if (known != null) {
            return known;
        }
        // the source's lock, not this token's, which a caller might hold
        synchronized (state) {
            if (computed == null) {
                computed = Objects.requireNonNull(((Supplier<CausalToken>) state).get(), "deferred token").claims();
            }
            return computed;
        }
    }

    private static <C> List<C> normalised(Collection<C> claims, Comparator<C> byKey, Comparator<C> byValue) {
        List<C> sorted = new ArrayList<>(claims);
        sorted.forEach(c -> Objects.requireNonNull(c, "claim"));
        sorted.sort(byKey.thenComparing(byValue.reversed()));
        List<C> out = new ArrayList<>(sorted.size());
        for (C c : sorted) {
            // the highest value of each key sorts first among its key
            if (out.isEmpty() || byKey.compare(out.get(out.size() - 1), c) != 0) {
                out.add(c);
            }
        }
        return List.copyOf(out);
    }

    private static <C> boolean covers(List<C> mine, List<C> theirs, Comparator<C> byKey,
            ToLongFunction<C> value) {
        int i = 0;
        for (C claim : theirs) {
            // both sorted by key: one pass
            while (i < mine.size() && byKey.compare(mine.get(i), claim) < 0) {
                i++;
            }
            if (i == mine.size() || byKey.compare(mine.get(i), claim) != 0
                    || value.applyAsLong(mine.get(i)) < value.applyAsLong(claim)) {
                return false;
            }
        }
        return true;
    }

    /** Both kinds of claim, each sorted by its key with one claim per key, and unmodifiable. */
    private record Claims(List<OffsetClaim> offsets, List<SequenceClaim> sequences) {
    }

    /**
     * An offset claim: every record at or below {@code offset} of the partition may be a cause.
     *
     * @param topicId the topic's broker-assigned id, never null
     * @param partition the partition, {@code >= 0}
     * @param offset the offset watermark, {@code >= 0}
     */
    record OffsetClaim(UUID topicId, int partition, long offset) {

        OffsetClaim {
            Objects.requireNonNull(topicId, "topicId");
            if (partition < 0 || offset < 0) {
                throw new IllegalArgumentException("Offset claim needs a partition and an offset >= 0; topic="
                        + topicId + ", partition=" + partition + ", offset=" + offset);
            }
        }
    }

    /**
     * A sequence claim: every record {@code sender} sent to the partition (or, for partition
     * {@link #WHOLE_TOPIC}, to any partition of the topic) with a send sequence at or below
     * {@code seq} may be a cause.
     *
     * @param topicId the topic's broker-assigned id, never null
     * @param partition the partition, {@code >= 0}, or {@link #WHOLE_TOPIC}
     * @param sender the sending stage task's id, never null
     * @param seq the sequence watermark, {@code >= 0}
     */
    record SequenceClaim(UUID topicId, int partition, UUID sender, long seq) {

        /** The partition of a claim on every partition of its topic. */
        static final int WHOLE_TOPIC = -1;

        SequenceClaim {
            Objects.requireNonNull(topicId, "topicId");
            Objects.requireNonNull(sender, "sender");
            if (partition < WHOLE_TOPIC || seq < 0) {
                throw new IllegalArgumentException("Sequence claim needs a partition >= -1 and a sequence >= 0; topic="
                        + topicId + ", partition=" + partition + ", sender=" + sender + ", seq=" + seq);
            }
        }
    }
}
