package io.github.tobyjamesclements.parsley;

import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier;

/**
 * Kafka Streams' default clients, with the main consumer wrapped by {@link PositionCapture}
 * (protocol.md §12.3) and the producer by {@link TransactionPartitions} (a sink's partitions asked
 * once per transaction, not per record). Restore and global consumers are not causal inputs and
 * stay plain.
 */
final class CapturingClientSupplier implements KafkaClientSupplier {

    private final KafkaClientSupplier defaults = new DefaultKafkaClientSupplier();

    @Override
    public Admin getAdmin(Map<String, Object> config) {
        return defaults.getAdmin(config);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return new TransactionPartitions(defaults.getProducer(config));
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
        return PositionCapture.wrap(defaults.getConsumer(config));
    }

    @Override
    public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
        return defaults.getRestoreConsumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
        return defaults.getGlobalConsumer(config);
    }
}
