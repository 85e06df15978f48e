package io.github.tobyjamesclements.parsley;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/** The baseline's processor: forwards the record as it is (after {@code storePuts} store writes). */
final class E2eCopyProcessor implements Processor<byte[], byte[], byte[], byte[]> {
    static final String STORE = "copy-store";
    private final int storePuts;
    private ProcessorContext<byte[], byte[]> context;
    private KeyValueStore<Bytes, byte[]> store;
    private Bytes[] keys;
    private long counter;

    E2eCopyProcessor(int storePuts) {
        this.storePuts = storePuts;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        if (storePuts > 0) {
            store = context.getStateStore(STORE);
            keys = new Bytes[storePuts];
            for (int i = 0; i < storePuts; i++) {
                keys[i] = Bytes.wrap(("w/" + context.taskId() + "/" + i).getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        for (int i = 0; i < storePuts; i++) {
            store.put(keys[i], ByteBuffer.allocate(16).putLong(++counter).putLong(i).array());
        }
        context.forward(record);
    }
}
