package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;

/** STUB. */
final class Tokens {
    private Tokens() { }
    static CausalToken of(VectorClock c) {
        List<CausalToken.OffsetClaim> o = new ArrayList<>();
        c.offsets().forEach((ch, n) -> o.add(new CausalToken.OffsetClaim(ch.topicId(), ch.partition(), n)));
        List<CausalToken.SequenceClaim> q = new ArrayList<>();
        c.seqs().forEach((k, n) -> q.add(new CausalToken.SequenceClaim(k.channel().topicId(), k.channel().partition(), k.sender(), n)));
        return CausalToken.of(o, q);
    }
    static VectorClock clock(CausalToken t) {
        VectorClock c = new VectorClock();
        t.offsetClaims().forEach(x -> c.raiseOffset(new Channel(x.topicId(), x.partition()), x.offset()));
        t.sequenceClaims().forEach(x -> c.advanceSeq(new SeqKey(x.partition() < 0 ? Channel.wholeTopic(x.topicId()) : new Channel(x.topicId(), x.partition()), x.sender()), x.seq()));
        return c;
    }
}
