package io.github.tobyjamesclements.parsley.faults;

import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import io.github.tobyjamesclements.parsley.Step;
import io.github.tobyjamesclements.parsley.Topic;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The two applications of a fault run, the same two hops each. The notifier folds orders and
 * payments into a per-key sum of their sequence numbers and writes {@code kind|key|value|sum} (kind
 * {@code O} or {@code P}); the second hop counts notes per key and writes {@code note|count}. Parsley
 * holds a payment until its order was delivered; the plain control delivers in arrival order.
 * Both run exactly-once v2 with one stream thread and Kafka Streams' default commit interval.
 */
public final class FaultApps {

    private FaultApps() {
    }

    /** The Parsley application: stages {@code notifier} (orders, payments) and {@code hop} (notes). */
    public static Parsley parsley(String applicationId, FaultTopics t) {
        Topic<String, String> orders = Topic.of(t.orders(), Codec.utf8(), Codec.utf8());
        Topic<String, String> payments = Topic.of(t.payments(), Codec.utf8(), Codec.utf8());
        Topic<String, String> notes = Topic.of(t.notes(), Codec.utf8(), Codec.utf8());
        Topic<String, String> ledger = Topic.of(t.ledger(), Codec.utf8(), Codec.utf8());
        Stage notifier = Stage.named("notifier").state(Codec.int64(), () -> 0L)
                .on(orders, (Long s, Message<String, String> m) -> note(s, m, "O", notes))
                .on(payments, (Long s, Message<String, String> m) -> note(s, m, "P", notes))
                .into(notes).build();
        Stage hop = Stage.named("hop").state(Codec.int64(), () -> 0L)
                .on(notes, (Long s, Message<String, String> m) ->
                        Step.of(s + 1, ledger.send(m.key(), m.value() + "|" + (s + 1))))
                .into(ledger).build();
        return Parsley.named(applicationId, notifier, hop);
    }

    private static Step<Long> note(Long sum, Message<String, String> m, String kind, Topic<String, String> notes) {
        long next = sum + sequenceOf(m.value());
        return Step.of(next, notes.send(m.key(), kind + "|" + m.key() + "|" + m.value() + "|" + next));
    }

    /** The sequence number of an input value: {@code "v"} for an order, {@code "w:v"} for a payment. */
    static long sequenceOf(String value) {
        int colon = value.indexOf(':');
        return Long.parseLong(colon < 0 ? value : value.substring(0, colon));
    }

    /** The plain Kafka Streams control: the same two hops over the same inputs, without the gate. */
    public static KafkaStreams plain(Properties props, FaultTopics t) {
        StreamsBuilder b = new StreamsBuilder();
        b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("sum"), Serdes.String(),
                Serdes.Long()));
        b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("count"), Serdes.String(),
                Serdes.Long()));
        Consumed<String, String> in = Consumed.with(Serdes.String(), Serdes.String());
        Produced<String, String> out = Produced.with(Serdes.String(), Serdes.String());
        b.stream(t.orders(), in).mapValues(v -> "O" + v)
                .merge(b.stream(t.payments(), in).mapValues(v -> "P" + v))
                .processValues(() -> new Fold("sum", true), "sum").to(t.plainNotes(), out);
        b.stream(t.plainNotes(), in).processValues(() -> new Fold("count", false), "count").to(t.plainLedger(), out);
        return new KafkaStreams(b.build(), props);
    }

    /** The Streams settings both applications share; Parsley adds and enforces its own on top. */
    public static Properties streamsProps(String bootstrap, String applicationId, Path stateDir) {
        Properties p = new Properties();
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 3);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        return p;
    }

    /** The plain control's folds: the notifier's per-key sum (input prefixed by its kind) or the hop's count. */
    private static final class Fold implements FixedKeyProcessor<String, String, String> {

        private final String storeName;
        private final boolean notifier;
        private FixedKeyProcessorContext<String, String> context;
        private KeyValueStore<String, Long> store;

        Fold(String storeName, boolean notifier) {
            this.storeName = storeName;
            this.notifier = notifier;
        }

        @Override
        public void init(FixedKeyProcessorContext<String, String> context) {
            this.context = context;
            this.store = context.getStateStore(storeName);
        }

        @Override
        public void process(FixedKeyRecord<String, String> r) {
            Long before = store.get(r.key());
            long state = before == null ? 0 : before;
            String value;
            if (notifier) {
                String input = r.value().substring(1);
                state += sequenceOf(input);
                value = r.value().charAt(0) + "|" + r.key() + "|" + input + "|" + state;
            } else {
                state += 1;
                value = r.value() + "|" + state;
            }
            store.put(r.key(), state);
            context.forward(r.withValue(value));
        }
    }
}
