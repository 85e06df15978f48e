package io.github.tobyjamesclements.parsley;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.assertj.core.groups.Tuple;

/**
 * Unit-test rig for one causal node: its declaration, a committed store and a stub broker, plus
 * small factories for channels, clocks and records. {@link #start()} constructs a node over the
 * committed store, so calling it again is a restart (protocol.md §9.3).
 */
final class NodeRig {

    static final UUID TOPIC_C = topic(0x0C);
    static final UUID TOPIC_D = topic(0x0D);
    static final UUID TOPIC_E = topic(0x0E);
    static final UUID TOPIC_S = topic(0x51);
    static final UUID TOPIC_T = topic(0x52);
    static final UUID TOPIC_X = topic(0x58);
    static final UUID TOPIC_Y = topic(0x59);

    static final Channel C = new Channel(TOPIC_C, 0);
    static final Channel D = new Channel(TOPIC_D, 0);
    static final Channel E = new Channel(TOPIC_E, 0);
    static final Channel S0 = new Channel(TOPIC_S, 0);
    static final Channel S1 = new Channel(TOPIC_S, 1);
    static final Channel T0 = new Channel(TOPIC_T, 0);
    static final Channel X = new Channel(TOPIC_X, 0);
    static final Channel Y = new Channel(TOPIC_Y, 2);

    /** The rig's own sender id. */
    static final UUID SELF = new UUID(0x5E1FL, 0x5E1FL);
    static final UUID U = new UUID(0x00AAL, 0x0001L);
    static final UUID V = new UUID(0x00AAL, 0x0002L);

    final TestStateStore store = new TestStateStore();
    final TestBrokerOffsets broker = new TestBrokerOffsets();
    private final Set<Channel> consumed = new TreeSet<>();
    private final Set<UUID> sinks = new TreeSet<>();
    private UUID sender = SELF;
    private String nodeId = "stage-task-0_0";
    private final Map<Channel, Long> committed = new TreeMap<>();
    private CausalNode last;
    private Set<Channel> lastConsumed = Set.of();
    /** Every send persists its sequence, so the worked examples of protocol.md count as written there. */
    private int sequenceBlock = 1;
    private int maxStampBytes = Integer.MAX_VALUE;

    /** Replaces the declared inputs (a changed declaration takes effect at the next start). */
    NodeRig consumes(Channel... channels) {
        consumed.clear();
        consumed.addAll(List.of(channels));
        return this;
    }

    /** Replaces the declared sinks; a sink the broker does not know yet is created with one empty partition. */
    NodeRig sinks(UUID... topics) {
        sinks.clear();
        for (UUID t : topics) {
            sinks.add(t);
            if (broker.endOffsets(t).isEmpty()) {
                broker.topic(t, 1);
            }
        }
        return this;
    }

    NodeRig sender(UUID id) {
        this.sender = id;
        return this;
    }

    /** Reserves send sequences in blocks of {@code block} (1, the default here, persists every send). */
    NodeRig sequenceBlock(int block) {
        this.sequenceBlock = block;
        return this;
    }

    /** Bounds the stamps of the nodes started from now on (§10.2); unbounded by default. */
    NodeRig maxStampBytes(int bytes) {
        this.maxStampBytes = bytes;
        return this;
    }

    NodeRig nodeId(String id) {
        this.nodeId = id;
        return this;
    }

    NodeConfig config() {
        return new NodeConfig(nodeId, sender, new TreeSet<>(consumed), new TreeSet<>(sinks), sequenceBlock,
                maxStampBytes);
    }

    /**
     * Constructs a node over the committed store: the first start, or a restart after the previous
     * node's commit ({@link #commit()}), unless it {@link #crash() crashed}.
     */
    CausalNode start() {
        if (last != null) {
            commit();
        }
        last = new CausalNode(config(), store, broker, committed);
        lastConsumed = Set.copyOf(consumed);
        return last;
    }

    /**
     * What a host does at a commit: the running node's buffered writes reach the store, and its
     * consumer positions count as committed with them, one past what each channel received (or its
     * frontier), as after its last call.
     */
    NodeRig commit() {
        last.persist();
        for (Channel c : lastConsumed) {
            long through = last.receivedThrough(c);
            if (through >= 0) {
                committed.merge(c, through + 1, Math::max);
            }
        }
        return this;
    }

    /** The running node crashed: what it did since the last commit is gone, and the next start restores. */
    NodeRig crash() {
        last = null;
        return this;
    }

    /** Sets the committed position of a channel, as a host would hand it to the next start. */
    NodeRig committed(Channel c, long position) {
        committed.put(c, position);
        return this;
    }

    /** Forgets every committed position: the consumer group's offsets are gone. */
    NodeRig offsetsLost() {
        committed.clear();
        last = null;
        return this;
    }

    // Factories ---------------------------------------------------------------------------

    static UUID topic(long id) {
        return new UUID(0L, id);
    }

    static VectorClock clock() {
        return new VectorClock();
    }

    static SeqKey seq(Channel c, UUID sender) {
        return new SeqKey(c, sender);
    }

    /** An unstamped record: no headers, claims nothing. */
    static InboundRecord record(Channel c, long offset) {
        return new InboundRecord(c, offset, null, null, -1, null, null, offset);
    }

    /** A plain-client record: a clock but no sender tag. */
    static InboundRecord record(Channel c, long offset, VectorClock clock) {
        return new InboundRecord(c, offset, clock, null, -1, null, null, offset);
    }

    /** A stage record: a clock and a sender tag. */
    static InboundRecord tagged(Channel c, long offset, UUID sender, long seq, VectorClock clock) {
        return new InboundRecord(c, offset, clock, sender, seq, null, null, offset);
    }

    /** A stage record carrying exactly the stamp another node prepared for it. */
    static InboundRecord stamped(Channel c, long offset, SendStamp stamp) {
        return new InboundRecord(c, offset, stamp.clock(), stamp.sender(), stamp.seq(), null, null, offset);
    }

    /** The coordinate of a delivery, for {@code extracting(Delivery::channel, Delivery::offset)}. */
    static Tuple at(Channel c, long offset) {
        return new Tuple(c, offset);
    }

    static List<Tuple> coordinates(List<Delivery> deliveries) {
        List<Tuple> out = new ArrayList<>();
        deliveries.forEach(d -> out.add(at(d.channel(), d.offset())));
        return out;
    }

    /** The big-endian long of a store value such as {@code f/<ch>} or {@code sq/<ch>}. */
    static long longValue(byte[] bytes) {
        return ByteBuffer.wrap(bytes).getLong();
    }

    /** The two big-endian longs of a store value such as {@code q/<ch>/m} or {@code ds/<ch>/<sender>}. */
    static long[] longPair(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        return new long[] {b.getLong(), b.getLong()};
    }
}
