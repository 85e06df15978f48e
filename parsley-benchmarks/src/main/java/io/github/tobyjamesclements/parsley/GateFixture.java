package io.github.tobyjamesclements.parsley;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.UUID;

/**
 * A {@link CausalNode} over an in-memory store consuming {@link #CHANNELS} channels (partition 0
 * of four source topics, as one Kafka Streams task sees them), primed so that every channel has
 * delivered offset 0, plus the dependency clocks its records carry.
 *
 * <p>A clock of width {@code w} for a record on consumed channel {@code j} has
 * {@code min(w, 3)} offset claims at 0 on the other consumed channels (satisfied, so the gate
 * checks the frontier) and the remaining claims on partitions of an upstream topic this node does
 * not consume (the ignore branch), with realistic offsets.
 */
final class GateFixture {

    static final int CHANNELS = 4;
    /**
     * Records between two persists: a host writes the node's buffered state once per commit
     * (100 ms in Kafka Streams under exactly-once), not once per record.
     */
    static final int RECORDS_PER_COMMIT = 1_000;
    static final byte[] KEY = new byte[16];
    static final byte[] VALUE = new byte[100];

    final CausalNode node;
    /** The consumed channels in the node's (sorted) cascade order. */
    final Channel[] consumed = new Channel[CHANNELS];

    /** The same channels as the node's configuration holds them. */
    final TreeSet<Channel> consumedSet = new TreeSet<>();
    final UUID[] senders = new UUID[CHANNELS];
    /** Per consumed channel, the clock its records carry, all claims satisfied. */
    final VectorClock[] clocks = new VectorClock[CHANNELS];
    final Channel[] upstream;
    /** The node's one declared sink topic; nothing was sent to it before the node started. */
    final UUID sink;
    final long[] upstreamOffsets;
    private int sincePersist;

    GateFixture(int width) {
        SplittableRandom random = new SplittableRandom(0xBE7CL);
        TreeSet<Channel> channels = consumedSet;
        for (int t = 0; t < CHANNELS; t++) {
            channels.add(new Channel(new UUID(random.nextLong(), random.nextLong()), 0));
        }
        channels.toArray(consumed);
        UUID upstreamTopic = new UUID(random.nextLong(), random.nextLong());
        upstream = new Channel[width];
        upstreamOffsets = new long[width];
        for (int p = 0; p < width; p++) {
            upstream[p] = new Channel(upstreamTopic, p);
            upstreamOffsets[p] = (long) Math.pow(10, 6 + 3 * random.nextDouble());
        }
        for (int j = 0; j < CHANNELS; j++) {
            senders[j] = new UUID(random.nextLong(), random.nextLong());
            clocks[j] = clock(j, width, -1, 0);
        }
        sink = new UUID(random.nextLong(), random.nextLong());
        // a sender id as a stage task has one: a stage id, and the task number 0
        node = new CausalNode(new NodeConfig("bench-task-0_0", new UUID(random.nextLong(), 0), channels,
                new TreeSet<>(List.of(sink))), new InMemoryStateStore(), new EmptySinkOffsets(), Map.of());
        for (Channel c : consumed) {
            if (node.onRecord(new InboundRecord(c, 0, null, null, -1, KEY, VALUE, 0)).size() != 1) {
                throw new IllegalStateException("Priming record was not delivered; channel=" + c);
            }
        }
    }

    /** Counts records fed, and persists the node's writes as a committing host would, once per commit. */
    void fed(int records) {
        sincePersist += records;
        if (sincePersist >= RECORDS_PER_COMMIT) {
            node.persist();
            sincePersist = 0;
        }
    }

    /**
     * A clock of {@code width} claims for a record on channel {@code own}: claims on the other
     * consumed channels first (the {@code blocking} one, if any, leading at {@code blockingOffset},
     * the rest at 0), then upstream partitions.
     */
    VectorClock clock(int own, int width, int blocking, long blockingOffset) {
        VectorClock clock = new VectorClock();
        int consumedClaims = Math.min(width, CHANNELS - 1);
        if (blocking >= 0) {
            clock.advanceTo(consumed[blocking], blockingOffset);
        }
        for (int k = 1; k < CHANNELS && clock.offsets().size() < consumedClaims; k++) {
            int j = (own + k) % CHANNELS;
            if (j != blocking) {
                clock.advanceTo(consumed[j], 0);
            }
        }
        for (int p = 0; p < width - consumedClaims; p++) {
            clock.advanceTo(upstream[p], upstreamOffsets[p]);
        }
        return clock;
    }

    InboundRecord record(int channel, long offset, VectorClock clock) {
        return new InboundRecord(consumed[channel], offset, clock, senders[channel], offset, KEY, VALUE, offset);
    }
}
