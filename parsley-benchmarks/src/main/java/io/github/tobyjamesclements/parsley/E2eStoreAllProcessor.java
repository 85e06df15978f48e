package io.github.tobyjamesclements.parsley;

import java.util.Arrays;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The restore mode's plain Streams processor: a record of phase 0 is kept in the store under its
 * own key (kind, phase and seq, the first 6 bytes of {@link E2eWorkload#value}), so the store
 * grows by one entry per record as a Parsley hold queue does; a record of a later phase is
 * forwarded.
 */
final class E2eStoreAllProcessor implements Processor<byte[], byte[], byte[], byte[]> {
    static final String STORE = "restore-store";
    private ProcessorContext<byte[], byte[]> context;
    private KeyValueStore<Bytes, byte[]> store;

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        this.store = context.getStateStore(STORE);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        if (E2eWorkload.phase(record.value()) == 0) {
            store.put(Bytes.wrap(Arrays.copyOf(record.value(), 6)), record.value());
        } else {
            context.forward(record);
        }
    }
}
