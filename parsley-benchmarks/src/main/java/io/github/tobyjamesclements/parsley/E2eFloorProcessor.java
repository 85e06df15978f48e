package io.github.tobyjamesclements.parsley;

import java.util.UUID;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The floors' processor: the plain copy (or a plain pipeline hop) plus what any causal stamp costs
 * Kafka Streams, without Parsley's protocol. Each record is forwarded with a fresh
 * {@link RecordHeaders} holding one {@code vc} header of a constant value as long as Parsley's stamp
 * there (the copy's: {@link #STAMP}, a single-source stamp; a hop's: {@link E2ePipelineFloor#stamp});
 * the task is stateful (a cached, logged store is attached, read at init, never written per record);
 * the sink partitions with Parsley's own partitioner ({@link StampingDoor#partitioner}).
 */
final class E2eFloorProcessor implements Processor<byte[], byte[], byte[], byte[]> {
    static final String STORE = "floor-store";

    /**
     * Value bytes of the stamp Parsley puts on a single-source copy's output: tagged (task below
     * 31, seq below 16 384), one offset entry, a single group on a partition from 1 to 15 with an
     * offset below 2 097 152 (docs/wire-format.md, "Size" and the worked single-source example).
     */
    static final int STAMP_BYTES = 32;

    /** The topic id of every floor stamp's offset claims: any id decodes, and the floor never reads it back. */
    static final UUID TOPIC_ID = new UUID(0x0102030405060708L, 0x090A0B0C0D0E0F10L);

    /** A decodable stamp of {@link #STAMP_BYTES} bytes, so the output reader sizes it as it sizes Parsley's. */
    static final byte[] STAMP = stamp();

    private final String store;
    private final byte[] stamp;
    /** 0 for the copy, which keeps each record's key; else the pipeline hop whose key it gives ({@link E2ePipeline#key}). */
    private final int hop;
    private ProcessorContext<byte[], byte[]> context;

    /** The copy floor's: {@link #STAMP} on every output, keys kept, store {@link #STORE}. */
    E2eFloorProcessor() {
        this(STORE, STAMP, 0);
    }

    /** A pipeline floor hop's: {@code stamp} on every output, re-keyed as {@link E2eRekeyProcessor} re-keys. */
    E2eFloorProcessor(String store, byte[] stamp, int hop) {
        this.store = store;
        this.stamp = stamp;
        this.hop = hop;
    }

    private static byte[] stamp() {
        VectorClock clock = new VectorClock().advanceTo(new Channel(TOPIC_ID, 1), 100_000);
        byte[] bytes = ClockCodec.encode(new SendStamp(clock, Senders.of("e2e-floor", "copy", 3), 300));
        if (bytes.length != STAMP_BYTES) {
            throw new IllegalStateException("The floor's stamp encodes to " + bytes.length + " bytes, not "
                    + STAMP_BYTES + "; the stamp layout changed: re-derive STAMP_BYTES from docs/wire-format.md");
        }
        return bytes;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        // Attached so that the task is stateful (Streams' state checks run per record); never written.
        // Looked up as Parsley looks up its stores, which also fails here if it is not connected.
        KeyValueStore<Bytes, byte[]> kv = context.getStateStore(store);
        if (!kv.isOpen()) {
            throw new IllegalStateException("The floor's store " + store + " is not open in task " + context.taskId());
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(CausalHeaders.CLOCK, stamp);
        Record<byte[], byte[]> out = record.withHeaders(headers);
        context.forward(hop == 0 ? out : out.withKey(E2ePipeline.key(record.value(), hop)));
    }
}
