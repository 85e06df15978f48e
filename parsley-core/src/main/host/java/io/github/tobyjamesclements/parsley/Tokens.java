package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;

/**
 * Between the protocol's clocks and the public {@link CausalToken}: a token names exactly the
 * claims of a clock (protocol.md §1.2), whole-topic sequence claims as partition {@code -1}, and
 * converts back to an equal clock.
 */
final class Tokens {

    private Tokens() {
    }

    /** Every offset and sequence claim of {@code clock}. */
    static CausalToken of(VectorClock clock) {
        return CausalToken.of(offsets(clock, 0), sequences(clock));
    }

    /** {@link #of(VectorClock)} with the record at {@code offset} of {@code own} claimed too: a delivered record's past. */
    static CausalToken of(VectorClock clock, Channel own, long offset) {
        List<CausalToken.OffsetClaim> offsets = offsets(clock, 1);
        offsets.add(new CausalToken.OffsetClaim(own.topicId(), own.partition(), offset));
        return CausalToken.of(offsets, sequences(clock));
    }

    private static List<CausalToken.OffsetClaim> offsets(VectorClock clock, int room) {
        List<CausalToken.OffsetClaim> out = new ArrayList<>(clock.offsetCount() + room);
        for (int i = 0; i < clock.offsetCount(); i++) {
            Channel c = clock.channel(i);
            out.add(new CausalToken.OffsetClaim(c.topicId(), c.partition(), clock.offsetAt(i)));
        }
        return out;
    }

    private static List<CausalToken.SequenceClaim> sequences(VectorClock clock) {
        List<CausalToken.SequenceClaim> out = new ArrayList<>(clock.seqCount());
        for (int i = 0; i < clock.seqCount(); i++) {
            SeqKey k = clock.seqKey(i);
            out.add(new CausalToken.SequenceClaim(k.channel().topicId(), k.channel().partition(), k.sender(),
                    clock.seqAt(i)));
        }
        return out;
    }

    /** The clock of {@code token}'s claims; a partition of {@code -1} names a whole-topic key ({@link Channel#wholeTopic}). */
    static VectorClock clock(CausalToken token) {
        VectorClock clock = new VectorClock();
        for (CausalToken.OffsetClaim c : token.offsetClaims()) {
            clock.advanceTo(new Channel(c.topicId(), c.partition()), c.offset());
        }
        for (CausalToken.SequenceClaim c : token.sequenceClaims()) {
            Channel channel = c.partition() == CausalToken.SequenceClaim.WHOLE_TOPIC ? Channel.wholeTopic(c.topicId())
                    : new Channel(c.topicId(), c.partition());
            clock.advanceSeq(new SeqKey(channel, c.sender()), c.seq());
        }
        return clock;
    }

    /**
     * A delivered record's token, computed only if the logic asks for it ({@link Message#token()}):
     * the record's own coordinate and its stamp's claims. A held record owns its clock, which the
     * node never changes once the record is queued. The record fed in this call may instead share
     * the reader's clock, which the task's next record overwrites: its token decodes the record's
     * {@code vc} header value when asked, an array Kafka made for this record and nothing writes.
     * So a delivery costs the token and its source, and no clock.
     */
    static CausalToken delivered(HeldEntry e, StampReader stamps) {
        VectorClock clock = e.clock();
        Channel own = e.channel();
        long offset = e.offset();
        if (clock != stamps.clock()) {
            return CausalToken.deferred(() -> of(clock, own, offset));
        }
        byte[] stamp = stamps.bytes();
        return CausalToken.deferred(() -> of(ClockCodec.decodeStamp(stamp).clock(), own, offset));
    }
}
