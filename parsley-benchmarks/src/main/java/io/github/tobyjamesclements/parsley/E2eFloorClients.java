package io.github.tobyjamesclements.parsley;

import java.util.Map;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier;

/**
 * The floor variants' clients: Kafka Streams' defaults with the producer Parsley gives a stage's
 * stream threads ({@link TransactionPartitions}, a sink's partitions asked once per transaction),
 * so that a floor pays for its sink partitioner what a stage pays.
 */
final class E2eFloorClients extends DefaultKafkaClientSupplier {

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return new TransactionPartitions(super.getProducer(config));
    }
}
