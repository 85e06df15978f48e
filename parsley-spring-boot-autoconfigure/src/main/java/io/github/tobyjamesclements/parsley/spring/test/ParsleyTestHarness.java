package io.github.tobyjamesclements.parsley.spring.test;

import io.github.tobyjamesclements.parsley.CausalClock;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Topic;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/**
 * Runs a {@link Parsley} application without a broker, over {@link Parsley#testTopology()} and
 * {@link TopologyTestDriver}: pipe records (optionally claiming earlier records as their causes),
 * read what the stages emitted, advance wall-clock time for ticks. In a Spring Boot test, get the
 * application's {@code Parsley} bean with {@code parsley.streams.enabled=false} (see
 * {@link ParsleyTest}).
 *
 * <p>Every topic has one partition here. Not thread-safe; close it after the test.
 */
public final class ParsleyTestHarness implements AutoCloseable {

    private final TopologyTestDriver driver;
    private final Path stateDir;
    private final Map<String, Long> nextOffsets = new HashMap<>();

    private ParsleyTestHarness(TopologyTestDriver driver, Path stateDir) {
        this.driver = driver;
        this.stateDir = stateDir;
    }

    /**
     * Starts a harness over a fresh test topology of the application.
     *
     * @param parsley the application, never null
     * @return the harness, never null
     */
    public static ParsleyTestHarness of(Parsley parsley) {
        Objects.requireNonNull(parsley, "parsley");
        Path dir;
        try {
            dir = Files.createTempDirectory("parsley-test-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, parsley.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "test-topology:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
        return new ParsleyTestHarness(new TopologyTestDriver(parsley.testTopology(), p, Instant.EPOCH), dir);
    }

    /**
     * Pipes a record stamped with an empty clock, as a stamping producer that has observed
     * nothing would: it depends on nothing. (A record with no clock header at all would be
     * delivered the same way, but a stage reading more than one topic warns about it.)
     *
     * @param topic the source topic, never null
     * @param key the key, may be null
     * @param value the value, may be null
     * @param <K> the key type
     * @param <V> the value type
     * @return the record's coordinate, to name it as a cause of later records
     */
    public <K, V> Piped pipe(Topic<K, V> topic, K key, V value) {
        return pipeAfter(topic, key, value);
    }

    /**
     * Pipes a record whose causal header claims the given earlier records as its causes, as a
     * stamping producer would: the stage holds it until they are delivered.
     *
     * @param topic the source topic, never null
     * @param key the key, may be null
     * @param value the value, may be null
     * @param causes records it depends on, piped before or after it
     * @param <K> the key type
     * @param <V> the value type
     * @return the record's coordinate
     */
    public <K, V> Piped pipeAfter(Topic<K, V> topic, K key, V value, Piped... causes) {
        RecordHeaders headers = new RecordHeaders();
        CausalClock clock = CausalClock.forTestTopology();
        for (Piped cause : causes) {
            clock.recordProduced(new RecordMetadata(new TopicPartition(cause.topic(), 0), cause.offset(), 0, 0, 0, 0));
        }
        clock.stamp(headers);
        TestInputTopic<byte[], byte[]> in = driver.createInputTopic(topic.name(), new ByteArraySerializer(),
                new ByteArraySerializer());
        byte[] k = key == null ? null : topic.keyCodec().encode(key);
        byte[] v = value == null ? null : topic.valueCodec().encode(value);
        long offset = nextOffsets.merge(topic.name(), 1L, Long::sum) - 1;
        in.pipeInput(new TestRecord<>(k, v, headers, Instant.EPOCH));
        return new Piped(topic.name(), offset);
    }

    /**
     * A coordinate the harness can name before the record exists: the {@code n}-th record (from 0)
     * piped to the topic. Use it to pipe an effect before its cause.
     *
     * @param topic the topic, never null
     * @param offset the offset
     * @return the coordinate
     */
    public static Piped at(Topic<?, ?> topic, long offset) {
        return new Piped(topic.name(), offset);
    }

    /**
     * Drains what the stages emitted to a topic since the last read, decoded.
     *
     * @param topic the sink topic, never null
     * @param <K> the key type
     * @param <V> the value type
     * @return the messages in emission order
     */
    public <K, V> List<Message<K, V>> read(Topic<K, V> topic) {
        TestOutputTopic<byte[], byte[]> out = driver.createOutputTopic(topic.name(), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        List<Message<K, V>> messages = new ArrayList<>();
        for (TestRecord<byte[], byte[]> r : out.readRecordsToList()) {
            messages.add(new Message<>(topic.name(), 0, messages.size(), r.timestamp(),
                    r.key() == null ? null : topic.keyCodec().decode(r.key()),
                    r.value() == null ? null : topic.valueCodec().decode(r.value())));
        }
        return messages;
    }

    /**
     * Advances the driver's wall clock, firing ticks and the position sweep.
     *
     * @param duration how far, never null
     */
    public void advanceTime(Duration duration) {
        driver.advanceWallClockTime(duration);
    }

    /**
     * The underlying driver, for anything the harness does not cover.
     *
     * @return the driver
     */
    public TopologyTestDriver driver() {
        return driver;
    }

    @Override
    public void close() {
        driver.close();
        try (Stream<Path> files = Files.walk(stateDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The coordinate of a piped record in the test topology.
     *
     * @param topic the topic
     * @param offset the offset
     */
    public record Piped(String topic, long offset) {
    }
}
