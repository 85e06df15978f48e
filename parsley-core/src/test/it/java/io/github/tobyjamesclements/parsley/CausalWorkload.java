package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * A sequential causal producer over two keyed topics of equal width, and the ground truth of what
 * it caused. Every record is stamped with a {@link CausalClock} after the previous send was
 * acknowledged, so each record's causes are all records sent before it: on every partition the
 * only causal delivery order is the send order. A "held" batch goes to the first topic inside a
 * transaction that stays open until {@link #commitHeld()}, so later records that claim it are held.
 *
 * <p>The stage under test folds a per-key sum and emits {@code topic|key|value|sum} to an output
 * topic of the same width, keyed like its input, so output partition {@code p} is the delivery log
 * of task {@code p}. {@link #assertDelivered} checks that log against the ground truth without
 * reading any clock.
 */
final class CausalWorkload implements AutoCloseable {

    private final String first;
    private final String second;
    private final int partitions;
    private final KafkaProducer<String, String> plain = TestKafka.producer();
    private final CausalClock clock = new CausalClock(TestKafka.admin());
    private final List<Sent> sent = new ArrayList<>();
    private KafkaProducer<String, String> held;

    CausalWorkload(String first, String second, int partitions) {
        this.first = first;
        this.second = second;
        this.partitions = partitions;
    }

    /** One send of the ground truth. */
    record Sent(String topic, int partition, String key, long value) {
        String label() {
            return topic + "|" + key + "|" + value;
        }
    }

    /** The partition the stage's door and this producer both choose for a key. */
    int partitionOf(String key) {
        return StampingDoor.partition(key.getBytes(StandardCharsets.UTF_8), partitions);
    }

    /** Sends {@code count} rounds: per round and key, one record to the first topic, then one to the second. */
    void rounds(int count, List<String> keys) {
        for (int r = 0; r < count; r++) {
            for (String k : keys) {
                send(first, k);
                send(second, k);
            }
        }
    }

    /** Sends one stamped record and makes its acknowledged offset a cause of every later send. */
    void send(String topic, String key) {
        sendWith(plain, topic, key);
    }

    /** Opens the held transaction (on a fresh transactional producer). */
    void beginHeld() {
        held = TestKafka.transactionalProducer();
        held.beginTransaction();
    }

    /** Sends one stamped record inside the open held transaction: invisible to read-committed readers till commit. */
    void sendHeld(String topic, String key) {
        sendWith(held, topic, key);
    }

    void commitHeld() {
        held.commitTransaction();
        held.close();
        held = null;
    }

    private void sendWith(KafkaProducer<String, String> producer, String topic, String key) {
        long value = sent.size() + 1;
        ProducerRecord<String, String> record = new ProducerRecord<>(topic, partitionOf(key), key,
                Long.toString(value));
        clock.stamp(record.headers());
        try {
            RecordMetadata md = producer.send(record).get();
            clock.recordProduced(md);
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("Cannot send " + record, e);
        }
        sent.add(new Sent(topic, record.partition(), key, value));
    }

    int sentCount() {
        return sent.size();
    }

    /** How many records were sent to one topic (what a stage consuming only that topic delivers). */
    int sentCount(String topic) {
        return (int) sent.stream().filter(s -> s.topic().equals(topic)).count();
    }

    /** The value of the last record sent to a topic for a key. */
    long lastValue(String topic, String key) {
        for (int i = sent.size() - 1; i >= 0; i--) {
            if (sent.get(i).topic().equals(topic) && sent.get(i).key().equals(key)) {
                return sent.get(i).value();
            }
        }
        throw new IllegalArgumentException("nothing sent to " + topic + " for " + key);
    }

    /** The send order restricted to one partition: the only causal delivery order of that task. */
    List<String> expected(int partition) {
        return expected(partition, Set.of(first, second));
    }

    private List<String> expected(int partition, Set<String> topics) {
        return sent.stream().filter(s -> s.partition() == partition && topics.contains(s.topic())).map(Sent::label)
                .toList();
    }

    /**
     * Checks a stage's committed output log: per partition, exactly the send order (nothing lost,
     * duplicated or reordered), and each emitted sum equal to the ground-truth running sum per key.
     */
    void assertDelivered(List<ConsumerRecord<String, String>> outputs) {
        assertDelivered(outputs, Set.of(first, second));
    }

    /** {@link #assertDelivered(List)} for a stage that consumes only {@code topics} of the two. */
    void assertDelivered(List<ConsumerRecord<String, String>> outputs, Set<String> topics) {
        Map<Integer, List<String>> labels = new TreeMap<>();
        Map<String, Long> sums = new LinkedHashMap<>();
        for (ConsumerRecord<String, String> r : outputs) {
            String[] parts = r.value().split("\\|");
            String label = parts[0] + "|" + parts[1] + "|" + parts[2];
            labels.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(label);
            long sum = sums.merge(parts[1], Long.parseLong(parts[2]), Long::sum);
            assertThat(Long.parseLong(parts[3])).as("fold state after %s at output offset %d", label, r.offset())
                    .isEqualTo(sum);
        }
        for (int p = 0; p < partitions; p++) {
            assertThat(labels.getOrDefault(p, List.of())).as("delivery log of partition %d", p)
                    .containsExactlyElementsOf(expected(p, topics));
        }
    }

    /** The stage's fold: a per-key running sum, emitted as {@code topic|key|value|sum}. */
    static Step<Long> sum(Long state, Message<String, String> m, Topic<String, String> out) {
        long next = state + Long.parseLong(m.value());
        return Step.of(next, out.send(m.key(), m.topic() + "|" + m.key() + "|" + m.value() + "|" + next));
    }

    @Override
    public void close() {
        if (held != null) {
            held.close();
        }
        plain.close();
    }
}
