package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A node's single stamping site (protocol.md §6) and the stamp's hard bound (§10.2): the merge,
 * normalisation and own claims of each send, encoded; a stamp whose bytes exceed the node's
 * {@link NodeConfig#maxStampBytes} is <em>coarsened</em> and encoded again.
 *
 * <p>Coarsening turns every sequence claim on a partition into its sender's whole-topic claim on
 * that topic at the highest watermark of the sender's claims there (§6.7). It over-claims, never
 * under-claims: a whole-topic claim at {@code s} asks for the sender's records with sequence
 * {@code <= s} on every partition, which includes each partition claim it replaced. So it only
 * delays, and only where a receiver consumes another partition of the topic; §3.9's probe meets it
 * there. What it leaves is at most one sequence claim per (topic, sender), the size the startup
 * check bounds; a stamp still above the bound is the host's to refuse (protocol.md §12.1 H8).
 *
 * <p>Mutable, owned by its {@link CausalNode}; one thread.
 */
final class StampSite {

    private final NodeConfig config;
    private final NodeState state;
    private final NodeSeams seams;
    private final VectorClock sendClock = new VectorClock(); // each send's stamp is built in it, never handed out
    private final ClockWriter sendBytes = ClockWriter.scratch();
    private UUID lastSink; // the last send's sink topic, checked against the declaration only when it changes
    private long seqNormalisations;
    /** Volatile: the stage's metric reads it from any thread; written only when a stamp is coarsened. */
    private volatile long coarsened;

    StampSite(NodeConfig config, NodeState state, NodeSeams seams) {
        this.config = config;
        this.state = state;
        this.seams = seams;
    }

    /**
     * The {@code vc} header value of a send to a concrete partition, built in a reused clock; over
     * the bound, coarsened. It may still be over the bound: the host refuses to send it (H8).
     *
     * @throws IllegalStateException for a send to an undeclared sink
     */
    byte[] encode(Channel destination) {
        Objects.requireNonNull(destination, "Send destination is null: the host partitions before stamping");
        if (destination.topicId() != lastSink) {
            lastSink = config.requireSink(destination);
        }
        VectorClock stamp = seams.stampBase(state.stampBaseInto(sendClock), config.consumed());
        seqNormalisations += Stamping.normalize(stamp, config.senderId(), state);
        Stamping.claimOwnSends(stamp, config.senderId(), state, destination);
        seams.dropImplied(stamp, destination);
        // no endCall: a send borrows no clock (the receive call that did ended before any send)
        long seq = state.issueSendSeq(destination);
        byte[] bytes = ClockCodec.encode(stamp, config.senderId(), seq, sendBytes);
        if (bytes.length <= config.maxStampBytes()) {
            return bytes;
        }
        coarsen(stamp);
        coarsened++;
        return ClockCodec.encode(stamp, config.senderId(), seq, sendBytes);
    }

    /** Replaces every partition's sequence claim by its sender's whole-topic claim at the highest (class comment). */
    private void coarsen(VectorClock stamp) {
        List<SeqKey> partitions = new ArrayList<>();
        for (int i = 0; i < stamp.seqCount(); i++) {
            if (!stamp.seqKey(i).channel().isWholeTopic()) {
                partitions.add(stamp.seqKey(i));
            }
        }
        for (SeqKey k : partitions) {
            long s = stamp.seq(k);
            stamp.removeSeq(k);
            SeqKey whole = new SeqKey(state.topicKeyOf(k.channel()), k.sender());
            long claim = seams.coarsenedClaim(k, s);
            if (claim >= 0) {
                stamp.advanceSeq(whole, claim);
            }
        }
    }

    long seqNormalisations() {
        return seqNormalisations;
    }

    /** Stamps coarsened to stay under the bound since the node was built. */
    long coarsened() {
        return coarsened;
    }
}
