package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.WrappedStateStore;
import org.junit.jupiter.api.Test;

/** The protocol store's persist hook: found through Streams' wrappers, run on every cache flush, failing loudly. */
class PersistingStoreTests {

    @Test
    void theHookRunsOnEveryCacheFlushThatIsBeforeEveryCommit() {
        KeyValueStore<Bytes, byte[]> built = store("orders-state");
        List<String> calls = new ArrayList<>();
        PersistingStore.of(built).beforeCommit(() -> calls.add("persist"));

        ((WrappedStateStore<?, ?, ?>) built).flushCache();
        ((WrappedStateStore<?, ?, ?>) built).flushCache();

        assertThat(calls).containsExactly("persist", "persist");
    }

    @Test
    void aHookThatFailsFailsTheFlushSoTheCommitDoesNotHappen() {
        KeyValueStore<Bytes, byte[]> built = store("orders-state");
        PersistingStore.of(built).beforeCommit(() -> {
            throw new IllegalStateException("node abandoned");
        });

        assertThatThrownBy(((WrappedStateStore<?, ?, ?>) built)::flushCache)
                .isInstanceOf(IllegalStateException.class).hasMessage("node abandoned");
    }

    @Test
    void theStoreIsFoundBehindTheWrappersAProcessorSees() {
        KeyValueStore<Bytes, byte[]> built = store("orders-state");
        WrappedStateStore<KeyValueStore<Bytes, byte[]>, Bytes, byte[]> decorator = new WrappedStateStore<>(built) {
        };

        assertThat(PersistingStore.of(decorator)).isSameAs(built);
    }

    @Test
    void aProtocolStoreBuiltWithoutTheHookIsRefusedByName() {
        KeyValueStore<Bytes, byte[]> plain = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("orders-state"),
                Serdes.Bytes(), Serdes.ByteArray()).withLoggingDisabled().build();

        assertThatThrownBy(() -> PersistingStore.of(plain))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Protocol store without its persist hook; store=orders-state")
                .hasMessageContaining("fail closed");
    }

    private static KeyValueStore<Bytes, byte[]> store(String name) {
        return PersistingStore.builder(Stores.inMemoryKeyValueStore(name)).withCachingDisabled().withLoggingDisabled()
                .build();
    }
}
