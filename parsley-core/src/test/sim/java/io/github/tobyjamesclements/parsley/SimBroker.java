package io.github.tobyjamesclements.parsley;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The simulated Kafka cluster (protocol.md §14.3): partitions with real offset occupancy. Every
 * offset holds a business record (of a transaction that is open, committed or aborted) or a
 * transaction marker. A read-committed fetch returns business records of committed transactions
 * only and stops at the last stable offset; the log start advances with retention.
 *
 * <p>Non-transactional appends are committed at once and leave no marker. Deterministic: topics,
 * partitions and transactions are kept in sorted or insertion order.
 */
final class SimBroker {

    /** What occupies one offset. */
    enum Kind { RECORD, COMMIT_MARKER, ABORT_MARKER }

    /** The state of a transaction. */
    enum TxnState { OPEN, COMMITTED, ABORTED }

    /** One transaction of one producing actor. */
    static final class Txn {
        final long id;
        final String owner;
        TxnState state = TxnState.OPEN;
        final SortedSet<Channel> touched = new TreeSet<>();
        final List<Long> recordIds = new ArrayList<>();

        Txn(long id, String owner) {
            this.id = id;
            this.owner = owner;
        }

        boolean open() {
            return state == TxnState.OPEN;
        }
    }

    /**
     * One log entry. Records carry the oracle id, key, value and the protocol headers. A dead
     * letter carries the id of the record it holds and the application headers its host wrote.
     */
    record Entry(Kind kind, Txn txn, long recordId, byte[] key, byte[] value, VectorClock clock, UUID sender,
            long seq, byte[] headers) {

        boolean fetchable() {
            return kind == Kind.RECORD && txn.state == TxnState.COMMITTED;
        }
    }

    /** A fetched business record with its coordinate. */
    record Fetched(Channel channel, long offset, Entry entry) {

        InboundRecord inbound() {
            return inbound(false);
        }

        /** The record as a host hands it in; one that keeps headers (for dead letters) hands in the record's. */
        InboundRecord inbound(boolean keepHeaders) {
            return new InboundRecord(channel, offset, entry.clock(), entry.sender(), entry.sender() == null ? -1
                    : entry.seq(), entry.key(), entry.value(), offset,
                    keepHeaders ? SimWorld.headers(entry.recordId()) : null);
        }
    }

    /** A read-committed fetch: the records returned and the consumer position after it. */
    record Fetch(List<Fetched> records, long position, boolean reset) {
    }

    private static final class Partition {
        final List<Entry> log = new ArrayList<>();
        long logStart;
        /** Every offset below it is resolved (no open record), which is permanent. */
        long resolvedBelow;
    }

    private final Map<UUID, String> names = new TreeMap<>();
    private final Map<String, UUID> ids = new TreeMap<>();
    private final Map<Channel, Partition> partitions = new TreeMap<>();
    private final Map<UUID, Integer> partitionCounts = new TreeMap<>();
    private final List<Txn> txns = new ArrayList<>();
    private final Consumer<String> trace;

    SimBroker(Consumer<String> trace) {
        this.trace = trace;
    }

    /** The topic id of a name: name-based, so a run never depends on random ids. */
    static UUID topicId(String name) {
        return UUID.nameUUIDFromBytes(("parsley-sim-topic/" + name).getBytes(StandardCharsets.UTF_8));
    }

    void createTopic(String name, int partitionCount) {
        UUID id = topicId(name);
        names.put(id, name);
        ids.put(name, id);
        partitionCounts.put(id, partitionCount);
        for (int p = 0; p < partitionCount; p++) {
            partitions.put(new Channel(id, p), new Partition());
        }
    }

    UUID id(String topic) {
        UUID id = ids.get(topic);
        if (id == null) {
            throw new IllegalArgumentException("Unknown simulated topic; topic=" + topic);
        }
        return id;
    }

    String name(UUID topicId) {
        return names.get(topicId);
    }

    String name(Channel c) {
        return names.get(c.topicId()) + "-" + c.partition();
    }

    int partitionCount(UUID topicId) {
        return partitionCounts.get(topicId);
    }

    Channel channel(String topic, int partition) {
        return new Channel(id(topic), partition);
    }

    SortedSet<Channel> channels(String topic) {
        SortedSet<Channel> out = new TreeSet<>();
        UUID id = id(topic);
        for (int p = 0; p < partitionCount(id); p++) {
            out.add(new Channel(id, p));
        }
        return out;
    }

    Set<Channel> allChannels() {
        return partitions.keySet();
    }

    // Transactions --------------------------------------------------------------------------

    Txn begin(String owner) {
        Txn t = new Txn(txns.size(), owner);
        txns.add(t);
        return t;
    }

    /**
     * Appends a business record inside {@code txn} and returns its offset (known to the broker
     * only). Its stamp is stored as encoded and decoded again by {@link ClockCodec}, as a record's
     * header travels.
     */
    long append(Txn txn, Channel c, long recordId, byte[] key, byte[] value, VectorClock clock, UUID sender,
            long seq) {
        if (!txn.open()) {
            throw new IllegalStateException("Append to a finished transaction; txn=" + txn.id);
        }
        Partition p = partition(c);
        long offset = p.log.size();
        // The header a host writes and a consumer reads: every stamp crosses the real wire format.
        SendStamp wire = clock == null ? new SendStamp(null, null, -1)
                : ClockCodec.decodeStamp(sender == null ? ClockCodec.encode(clock)
                        : ClockCodec.encode(new SendStamp(clock, sender, seq)));
        p.log.add(new Entry(Kind.RECORD, txn, recordId, key, value, wire.clock(), wire.sender(), wire.seq(), null));
        txn.touched.add(c);
        txn.recordIds.add(recordId);
        return offset;
    }

    /**
     * Appends a dead letter of record {@code recordId} inside {@code txn}: unstamped, and not an
     * oracle record of its own (the transaction's fate is not the source record's).
     */
    void appendDeadLetter(Txn txn, Channel c, long recordId, byte[] key, byte[] value, byte[] headers) {
        if (!txn.open()) {
            throw new IllegalStateException("Append to a finished transaction; txn=" + txn.id);
        }
        partition(c).log.add(new Entry(Kind.RECORD, txn, recordId, key, value, null, null, -1, headers));
        txn.touched.add(c);
    }

    /** The dead letters {@code owner} committed to {@code c}, in offset order. */
    List<Entry> committedDeadLetters(Channel c, String owner) {
        List<Entry> out = new ArrayList<>();
        for (Entry e : partition(c).log) {
            if (e.fetchable() && e.txn().owner.equals(owner)) {
                out.add(e);
            }
        }
        return out;
    }

    void commit(Txn txn) {
        finish(txn, TxnState.COMMITTED, Kind.COMMIT_MARKER);
    }

    void abort(Txn txn) {
        finish(txn, TxnState.ABORTED, Kind.ABORT_MARKER);
    }

    /** A non-transactional append: visible at once, no marker. */
    long appendCommitted(String owner, Channel c, long recordId, byte[] key, byte[] value, VectorClock clock) {
        Txn t = begin(owner);
        long offset = append(t, c, recordId, key, value, clock, null, -1);
        t.state = TxnState.COMMITTED;
        return offset;
    }

    private void finish(Txn txn, TxnState state, Kind marker) {
        if (!txn.open()) {
            throw new IllegalStateException("Transaction already finished; txn=" + txn.id);
        }
        txn.state = state;
        for (Channel c : txn.touched) {
            partition(c).log.add(new Entry(marker, txn, -1, null, null, null, null, -1, null));
        }
        trace.accept("txn " + txn.id + " of " + txn.owner + " " + state + " on " + txn.touched.size() + " partitions");
    }

    // Offsets -------------------------------------------------------------------------------

    /** The high watermark: one past the last appended offset, open transactions included. */
    long highWatermark(Channel c) {
        return partition(c).log.size();
    }

    /** The last stable offset: the first offset of an open transaction, else the high watermark. */
    long lastStable(Channel c) {
        Partition p = partition(c);
        for (int o = (int) p.resolvedBelow; o < p.log.size(); o++) {
            Entry e = p.log.get(o);
            if (e.kind() == Kind.RECORD && e.txn().open()) {
                p.resolvedBelow = o;
                return o;
            }
        }
        p.resolvedBelow = p.log.size();
        return p.log.size();
    }

    long logStart(Channel c) {
        return partition(c).logStart;
    }

    Entry entry(Channel c, long offset) {
        return partition(c).log.get((int) offset);
    }

    /** Whether any offset in {@code [from, to)} is a marker or an aborted record. */
    boolean hasSkippable(Channel c, long from, long to) {
        Partition p = partition(c);
        for (long o = Math.max(from, p.logStart); o < to && o < p.log.size(); o++) {
            Entry e = p.log.get((int) o);
            if (e.kind() != Kind.RECORD || e.txn().state == TxnState.ABORTED) {
                return true;
            }
        }
        return false;
    }

    /**
     * A read-committed fetch of at most {@code max} records from {@code position}. A position below
     * the log start resets to it (H6). The position after the fetch passes markers and aborted
     * records up to the last stable offset, or stops after the last returned record when the fetch
     * was cut short by {@code max}.
     */
    Fetch fetch(Channel c, long position, int max) {
        Partition p = partition(c);
        boolean reset = position < p.logStart;
        long o = Math.max(position, p.logStart);
        long lso = lastStable(c);
        List<Fetched> out = new ArrayList<>();
        while (o < lso) {
            Entry e = p.log.get((int) o);
            if (e.fetchable()) {
                if (out.size() == max) {
                    break;
                }
                out.add(new Fetched(c, o, e));
            }
            o++;
        }
        return new Fetch(out, o, reset);
    }

    /** Advances the log start (retention); never past the last stable offset. */
    void advanceLogStart(Channel c, long start) {
        Partition p = partition(c);
        long bounded = Math.min(start, lastStable(c));
        if (bounded > p.logStart) {
            p.logStart = bounded;
            trace.accept("retention " + name(c) + " logStart=" + bounded);
        }
    }

    private Partition partition(Channel c) {
        Partition p = partitions.get(c);
        if (p == null) {
            throw new IllegalArgumentException("Unknown simulated channel; channel=" + c);
        }
        return p;
    }

    /** The node-facing offset queries: high watermarks (protocol.md §16.1) and log starts. */
    BrokerOffsets offsets() {
        return new Offsets();
    }

    /** The {@link BrokerOffsets} view; also answers last stable offsets for planted faults. */
    final class Offsets implements BrokerOffsets {

        @Override
        public Optional<Map<Integer, Long>> endOffsets(UUID topicId) {
            return perPartition(topicId, SimBroker.this::highWatermark);
        }

        Optional<Map<Integer, Long>> lastStableOffsets(UUID topicId) {
            return perPartition(topicId, SimBroker.this::lastStable);
        }

        @Override
        public LogStarts logStarts(Set<Channel> channels) {
            Map<Channel, Long> starts = new TreeMap<>();
            Set<Channel> absent = new TreeSet<>();
            for (Channel c : channels) {
                if (partitions.containsKey(c)) {
                    starts.put(c, logStart(c));
                } else {
                    absent.add(c);
                }
            }
            return new LogStarts(starts, absent);
        }

        private Optional<Map<Integer, Long>> perPartition(UUID topicId,
                java.util.function.ToLongFunction<Channel> f) {
            Integer n = partitionCounts.get(topicId);
            if (n == null) {
                return Optional.empty();
            }
            Map<Integer, Long> out = new TreeMap<>();
            for (int p = 0; p < n; p++) {
                out.put(p, f.applyAsLong(new Channel(topicId, p)));
            }
            return Optional.of(out);
        }
    }
}
