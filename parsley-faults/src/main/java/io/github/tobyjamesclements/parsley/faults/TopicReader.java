package io.github.tobyjamesclements.parsley.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a whole topic, read-committed, to the end offsets it finds when it starts. */
final class TopicReader {

    /** One committed record; {@code timestamp} is the broker's append time on the fault topics. */
    record Rec(int partition, long offset, long timestamp, String key, String value) {
    }

    private TopicReader() {
    }

    static List<Rec> readAll(String bootstrap, String topic) {
        Map<String, Object> props = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<Rec> out = new ArrayList<>();
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> tps = c.partitionsFor(topic, Duration.ofSeconds(60)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> ends = c.endOffsets(tps, Duration.ofSeconds(60));
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (!tps.stream().allMatch(tp -> c.position(tp, Duration.ofSeconds(60)) >= ends.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Cannot read " + topic + " to its end offsets " + ends
                            + " within 120 s (an open transaction that never ends?)");
                }
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    out.add(new Rec(r.partition(), r.offset(), r.timestamp(), r.key(), r.value()));
                }
            }
        }
        return out;
    }
}
