package io.github.tobyjamesclements.parsley;

import io.github.tobyjamesclements.parsley.E2eJson.Balance;
import io.github.tobyjamesclements.parsley.E2eJson.Event;
import io.github.tobyjamesclements.parsley.E2eJson.Output;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The plain Streams side of the JSON variant: what the Parsley balance stage does, by hand. Per
 * order or payment (already parsed by the source's JSON serde): read the customer's balance from
 * a logged, cached key-value store, apply the event, write the balance back and forward the JSON
 * output, without the input's headers. In the {@code json-floor} variant each output carries instead
 * one {@code vc} header of a constant value ({@link E2eJson#FLOOR_STAMP}), what any causal stamp
 * of this size costs without Parsley's protocol.
 */
final class E2eBalanceProcessor implements Processor<String, Event, String, Output> {
    static final String STORE = "balances";
    private final byte[] stamp;
    private ProcessorContext<String, Output> context;
    private KeyValueStore<String, Balance> store;

    /** @param stamp the {@code vc} value to put on every output, or null for none */
    E2eBalanceProcessor(byte[] stamp) {
        this.stamp = stamp;
    }

    @Override
    public void init(ProcessorContext<String, Output> context) {
        this.context = context;
        this.store = context.getStateStore(STORE);
    }

    @Override
    public void process(Record<String, Event> record) {
        Balance current = store.get(record.key());
        Balance next = (current == null ? Balance.EMPTY : current).apply(record.value());
        store.put(record.key(), next);
        Record<String, Output> out = new Record<>(record.key(), Output.of(next, record.value()), record.timestamp());
        if (stamp != null) {
            RecordHeaders headers = new RecordHeaders();
            headers.add(CausalHeaders.CLOCK, stamp);
            out = out.withHeaders(headers);
        }
        context.forward(out);
    }
}
