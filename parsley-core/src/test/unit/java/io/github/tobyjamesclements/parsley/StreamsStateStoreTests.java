package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The writes a node makes while it is built wait in the adapter until the first step: reads see
 * them at once, the Streams store only once they are applied, a delete included.
 */
class StreamsStateStoreTests {

    private static final byte[] V1 = {1};
    private static final byte[] V2 = {2};

    private KeyValueStore<Bytes, byte[]> streams;
    private StreamsStateStore store;

    @BeforeEach
    void open() {
        streams = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("protocol"), Serdes.Bytes(),
                Serdes.ByteArray()).withLoggingDisabled().withCachingDisabled().build();
        streams.init(new MockProcessorContext<>().getStateStoreContext(), streams);
        streams.put(key("kept"), V1);
        streams.put(key("gone"), V1);
        store = new StreamsStateStore(streams);
    }

    @Test
    void aDeferredDeleteHidesTheKeyAtOnceAndRemovesItWhenApplied() {
        store.delete("gone");

        assertThat(store.get("gone")).isNull();
        assertThat(streams.get(key("gone"))).as("not applied yet").isEqualTo(V1);

        store.applyDeferred();

        assertThat(streams.get(key("gone"))).isNull();
        assertThat(store.get("gone")).isNull();
        assertThat(streams.get(key("kept"))).isEqualTo(V1);
    }

    @Test
    void theLastDeferredWriteOfAKeyWins() {
        store.put("kept", V2);
        store.delete("kept");
        store.delete("gone");
        store.put("gone", V2);

        assertThat(store.get("kept")).isNull();
        assertThat(store.get("gone")).isEqualTo(V2);

        store.applyDeferred();

        assertThat(streams.get(key("kept"))).isNull();
        assertThat(streams.get(key("gone"))).isEqualTo(V2);
    }

    @Test
    void afterTheFirstStepADeleteGoesStraightToTheStore() {
        store.applyDeferred();

        store.delete("gone");

        assertThat(streams.get(key("gone"))).isNull();
        assertThat(store.get("kept")).isEqualTo(V1);
    }

    private static Bytes key(String k) {
        return Bytes.wrap(k.getBytes(StandardCharsets.UTF_8));
    }
}
