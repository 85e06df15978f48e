package io.github.tobyjamesclements.parsley;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** The plain Streams pipeline's hop: forwards the record's value under the key {@link E2ePipeline#key} gives it. */
final class E2eRekeyProcessor implements Processor<byte[], byte[], byte[], byte[]> {
    private final int hop;
    private ProcessorContext<byte[], byte[]> context;

    E2eRekeyProcessor(int hop) {
        this.hop = hop;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        context.forward(record.withKey(E2ePipeline.key(record.value(), hop)));
    }
}
