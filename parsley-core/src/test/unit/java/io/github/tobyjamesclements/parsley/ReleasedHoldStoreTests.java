package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.LocalStamps.claiming;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A released hold leaves the protocol store, in Kafka Streams' own cached, logged RocksDB store:
 * its entry is gone from the store and its changelog carries the tombstone that lets compaction
 * and a restore forget it. A restore reads only the entries between a queue's head and tail, so a
 * delete that wrote nothing would not fail any delivery; it would grow the store and its
 * changelog by every record ever held.
 */
class ReleasedHoldStoreTests {

    private static final Topic<String, String> ORDERS = Topic.of("orders", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> PAYMENTS = Topic.of("payments", Codec.utf8(), Codec.utf8());
    private static final Topic<String, String> NOTIFICATIONS = Topic.of("notifications", Codec.utf8(), Codec.utf8());
    private static final Stage NOTIFIER = Stage.named("notifier")
            .on(ORDERS, m -> List.of(NOTIFICATIONS.send(m.key(), "order " + m.value())))
            .on(PAYMENTS, m -> List.of(NOTIFICATIONS.send(m.key(), "payment " + m.value())))
            .into(NOTIFICATIONS)
            .build();
    private static final String STORE = Assembly.protocolStore(NOTIFIER);

    /** This test's own state directory: concurrent runs share the default one. */
    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<String, String> orders;
    private TestInputTopic<String, String> payments;
    private TestOutputTopic<byte[], byte[]> changelog;

    @BeforeEach
    void start() {
        open(props());
    }

    private void open(Properties props) {
        LocalTopicCatalog catalog = new LocalTopicCatalog(Set.of("orders", "payments", "notifications"));
        driver = new TopologyTestDriver(Assembly.build("shop", List.of(NOTIFIER), catalog, HoldBoard.timedByTasks(),
                null), props);
        orders = driver.createInputTopic("orders", new StringSerializer(), new StringSerializer());
        payments = driver.createInputTopic("payments", new StringSerializer(), new StringSerializer());
        changelog = driver.createOutputTopic("shop-" + STORE + "-changelog", new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void aReleasedEntryIsGoneFromTheStoreAndTombstonedInItsChangelog() {
        List<String> held = holdTwoPayments();

        orders.pipeInput("c1", "o0");

        assertForgotten(held);
    }

    /**
     * As entries restored from the changelog are: not in Streams' record cache, so that each delete
     * misses it (the test driver wipes its state directory on close, so a restart cannot show it).
     */
    @Test
    void anEntryNotInTheRecordCacheIsGoneOnceReleased() {
        driver.close();
        Properties uncached = props();
        uncached.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        open(uncached);
        List<String> held = holdTwoPayments();

        orders.pipeInput("c1", "o0");

        assertForgotten(held);
    }

    private List<String> holdTwoPayments() {
        payments.pipeInput(new TestRecord<>("c1", "p0", claiming("orders", 0)));
        payments.pipeInput(new TestRecord<>("c2", "p1", claiming("orders", 0)));
        List<String> held = entryKeys();
        assertThat(held).as("two payments held, each stored as a queue entry").hasSize(2);
        Map<String, byte[]> writes = lastWrites(changelog.readKeyValuesToList());
        held.forEach(k -> assertThat(writes.get(k)).as("%s in the changelog", k).isNotNull());
        return held;
    }

    private void assertForgotten(List<String> held) {
        assertThat(entryKeys()).as("both released by the order they claim").isEmpty();
        Map<String, byte[]> writes = lastWrites(changelog.readKeyValuesToList());
        for (String key : held) {
            assertThat(writes).as("a tombstone for %s", key).containsEntry(key, null);
            assertThat(store().get(Bytes.wrap(key.getBytes(StandardCharsets.UTF_8)))).as(key).isNull();
        }
    }

    /** The keys of the hold-queue entries the protocol store holds (protocol.md §10.3). */
    private List<String> entryKeys() {
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store().all()) {
            it.forEachRemaining(kv -> {
                String key = new String(kv.key.get(), StandardCharsets.UTF_8);
                if (key.startsWith("q/") && key.contains("/e/")) {
                    keys.add(key);
                }
            });
        }
        return keys;
    }

    private KeyValueStore<Bytes, byte[]> store() {
        return driver.getKeyValueStore(STORE);
    }

    /** Each key's last write in the changelog; a tombstone's value is null. */
    private static Map<String, byte[]> lastWrites(List<KeyValue<byte[], byte[]>> records) {
        Map<String, byte[]> last = new LinkedHashMap<>();
        records.forEach(r -> last.put(new String(r.key, StandardCharsets.UTF_8), r.value));
        return last;
    }


    private Properties props() {
        Properties p = new Properties();
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "shop");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return p;
    }
}
