package io.github.tobyjamesclements.parsley;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.processor.StreamPartitioner;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The single stamping door of a stage task (protocol.md §6, §12.2): every emission is checked
 * against the declared sinks, encoded once with its topic's codecs, partitioned deterministically,
 * stamped against that concrete partition, and forwarded to that sink with exactly the stamped
 * bytes (H4). A step's emissions are all checked and encoded before the first is stamped, so a
 * failing emission sends nothing. Dead letters bypass this door: they are not stamped.
 */
final class StampingDoor {

    private final ProcessorContext<byte[], byte[]> context;
    private final CausalNode node;
    private final Stage stage;
    private final TopicCatalog catalog;
    private final String tickTopic;
    private final Channel tickChannel;
    /**
     * Per declared sink topic: its processor node name and a channel per partition (as many as
     * were resolved at start, which the sink partitioner enforces), built at its first emission.
     */
    private final Map<String, Sink> sinks = new HashMap<>();
    /** The topic name and sink of the last emission: a stage sending to one sink finds it without a hash lookup. */
    private String lastTopic;
    private Sink lastSink;
    /**
     * The slots {@link #prepare} fills, the first {@link #prepared} of them this step's: refilled per
     * step instead of allocated per emission, since a step's emissions are sent before the next step
     * is prepared and nothing else keeps them.
     */
    private final List<Outbound> slots = new ArrayList<>();
    private int prepared;
    /** Whether the stage's processor has one child, its one sink ({@link Assembly#soleSink}). */
    private final boolean soleSink;
    private final SentStamps sent = new SentStamps();

    /**
     * The stamps sent since the metrics last took them ({@link StageMetrics#recordCommit}): their
     * count, their bytes and the largest, tallied per send rather than recorded per send.
     */
    static final class SentStamps {
        private long count;
        private long bytes;
        private int largest;

        void add(int stampBytes) {
            count++;
            bytes += stampBytes;
            largest = Math.max(largest, stampBytes);
        }

        long count() {
            return count;
        }

        long bytes() {
            return bytes;
        }

        int largest() {
            return largest;
        }

        void reset() {
            count = 0;
            bytes = 0;
            largest = 0;
        }
    }

    /** A declared sink topic as the door sends to it. */
    record Sink(String topic, String node, Channel[] channels) {
    }

    StampingDoor(ProcessorContext<byte[], byte[]> context, CausalNode node, Stage stage, TopicCatalog catalog,
            String tickTopic, Channel tickChannel, boolean soleSink) {
        this.context = context;
        this.node = node;
        this.stage = stage;
        this.catalog = catalog;
        this.tickTopic = tickTopic;
        this.tickChannel = tickChannel;
        this.soleSink = soleSink;
    }

    /**
     * One emission checked, encoded and partitioned, not yet stamped or sent: a slot of the door's,
     * mutable so that a step's emissions allocate nothing of their own (the door is confined to its
     * task's stream thread).
     */
    private static final class Outbound {
        private Sink sink;
        private byte[] key;
        private byte[] value;
        private int partition;
        private long timestamp;
    }

    /**
     * Checks and encodes emissions in list order without stamping or sending any, so that a
     * failure leaves nothing behind; an emission's timestamp defaults to {@code inheritedTimestamp}.
     * They wait in the door for {@link #send}: send them before preparing again.
     *
     * @throws LogicFailure for an emission to an undeclared sink or one its topic's codecs refuse
     */
    void prepare(List<Emission> emissions, long inheritedTimestamp) {
        prepared = 0;
        // by index (a step's emissions are an immutable list): no iterator per delivery
        for (int i = 0, n = emissions.size(); i < n; i++) {
            Emission e = emissions.get(i);
            String topic = e.topic();
            Sink sink = declaredSink(topic);
            byte[] key = LogicFailure.guard("key codec of sink ", topic, Topic::encodeKey, e.target(), e.key());
            byte[] value = LogicFailure.guard("value codec of sink ", topic, Topic::encodeValue, e.target(), e.value());
            long ts = e.timestamp() == Emission.INHERIT_TIMESTAMP ? inheritedTimestamp : e.timestamp();
            if (prepared == slots.size()) {
                slots.add(new Outbound());
            }
            Outbound o = slots.get(prepared++);
            o.sink = sink;
            o.key = key;
            o.value = value;
            o.partition = partition(key, sink.channels().length);
            o.timestamp = ts;
        }
    }

    /**
     * The sink of an emission's topic, resolved once per topic rather than per emission; the last
     * one is kept by the name's reference (a {@link Topic}'s name is one string for its lifetime).
     */
    private Sink declaredSink(String topic) {
        if (topic == lastTopic) {
            return lastSink;
        }
        Sink sink = sinks.get(topic);
        if (sink == null) {
            if (!stage.sinks().containsKey(topic)) {
                throw new LogicFailure("emission", new IllegalArgumentException("Emission to an undeclared sink;"
                        + " stage=" + stage.name() + ", topic=" + topic + ", declared sinks=" + stage.sinks().keySet()
                        + "; declare the topic with into(...)"));
            }
            sink = sink(topic);
            sinks.put(topic, sink);
        }
        lastTopic = topic;
        lastSink = sink;
        return sink;
    }

    /**
     * Stamps each prepared emission for its concrete partition and forwards it, in order (H4),
     * letting the delivery's {@code scope} add headers after the stamp.
     */
    void send(DeliveryObserver.Scope scope) {
        for (int i = 0; i < prepared; i++) {
            Outbound o = slots.get(i);
            Sink sink = o.sink;
            // Kafka's Record copies headers handed to its constructor: stamping the record's own
            // empty headers builds one header list per send, not two
            Record<byte[], byte[]> record = new Record<>(o.key, o.value, o.timestamp);
            // the slot lets go of the step's bytes: only the record holds them now
            o.key = null;
            o.value = null;
            CausalHeaders.addStamp(record.headers(), stamp(sink.channels()[o.partition]));
            scope.emitting(sink.topic(), record.headers());
            if (soleSink) {
                context.forward(record);
            } else {
                context.forward(record, sink.node());
            }
        }
    }

    /**
     * The stamp of a send to {@code destination}, coarsened by the node where over the stage's bound;
     * one still over it is refused before anything is sent (H8, protocol.md §10.2).
     */
    private byte[] stamp(Channel destination) {
        byte[] stamp = node.encodeSend(destination);
        if (stamp.length > stage.maxStampBytes()) {
            throw StampBudget.refused(stage, catalog, destination, stamp);
        }
        sent.add(stamp.length);
        return stamp;
    }

    /** The stamps sent since the metrics last took them. */
    SentStamps sent() {
        return sent;
    }

    /** Emits one tick to this task's own partition of the tick topic (protocol.md §12.5). */
    void tick(long now) {
        RecordHeaders headers = new RecordHeaders();
        CausalHeaders.addStamp(headers, stamp(tickChannel));
        byte[] key = ByteBuffer.allocate(Integer.BYTES).putInt(tickChannel.partition()).array();
        context.forward(new Record<>(key, null, now, headers), sinkName(stage.name(), tickTopic));
    }

    private Sink sink(String topic) {
        UUID id = catalog.topicId(topic);
        Channel[] channels = new Channel[catalog.partitions(topic)];
        for (int p = 0; p < channels.length; p++) {
            channels[p] = new Channel(id, p);
        }
        return new Sink(topic, sinkName(stage.name(), topic), channels);
    }

    static String sinkName(String stage, String topic) {
        return "vc-" + stage + "-sink-" + topic;
    }

    /** murmur2 of the key bytes made positive, modulo the partition count; a null key goes to partition 0. */
    static int partition(byte[] key, int partitions) {
        return key == null ? 0 : Utils.toPositive(Utils.murmur2(key)) % partitions;
    }

    /** The sink partitioner: recomputes the door's choice, and fails if the partition count changed. */
    static StreamPartitioner<byte[], byte[]> partitioner(String topic, int partitions) {
        List<Optional<Set<Integer>>> answers = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            answers.add(Optional.of(Set.of(p)));
        }
        return (t, key, value, count) -> {
            if (count != partitions) {
                throw new IllegalStateException("Partition count of a sink changed while running; topic=" + topic
                        + ", resolved=" + partitions + ", now=" + count
                        + "; causal stamps name partitions: restart the application after repartitioning");
            }
            return answers.get(partition(key, partitions));
        };
    }

    /** The tick sink partitioner: the partition is the 4-byte key (F18). */
    static StreamPartitioner<byte[], byte[]> tickPartitioner(String topic) {
        return (t, key, value, count) -> {
            if (key == null || key.length != Integer.BYTES) {
                throw new IllegalStateException("Malformed tick key; topic=" + topic + ", length="
                        + (key == null ? "null" : key.length) + "; expected 4 bytes");
            }
            return Optional.of(Set.of(ByteBuffer.wrap(key).getInt()));
        };
    }
}
