package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.processor.StreamPartitioner;
import org.junit.jupiter.api.Test;

/**
 * The stream thread's producer that answers a topic's partitions once per transaction, against
 * Kafka's in-memory {@link MockProducer} whose answers a test can change and count.
 */
class TransactionPartitionsTests {

    private static final String SINK = "out";
    private static final String OTHER = "dead-letters";

    private final Metadata mock = new Metadata();
    private final TransactionPartitions producer = new TransactionPartitions(mock);

    @Test
    void eachTopicIsAskedOncePerTransaction() {
        mock.partitions(SINK, 3);
        mock.partitions(OTHER, 1);
        producer.initTransactions();
        producer.beginTransaction();

        for (int i = 0; i < 4; i++) {
            assertThat(producer.partitionsFor(SINK)).hasSize(3);
            assertThat(producer.partitionsFor(OTHER)).hasSize(1);
        }

        assertThat(mock.asked).containsExactly(SINK, OTHER);
    }

    @Test
    void aNewTransactionAsksAgainSoTheSinkPartitionerSeesAGrownTopic() {
        StreamPartitioner<byte[], byte[]> partitioner = StampingDoor.partitioner(SINK, 3);
        byte[] key = "c1".getBytes(StandardCharsets.UTF_8);
        mock.partitions(SINK, 3);
        producer.initTransactions();
        producer.beginTransaction();
        assertThat(partitioner.partitions(SINK, key, null, producer.partitionsFor(SINK).size())).isPresent();

        mock.partitions(SINK, 4);
        assertThat(producer.partitionsFor(SINK)).as("the transaction's answer").hasSize(3);
        producer.commitTransaction();
        producer.beginTransaction();

        assertThat(producer.partitionsFor(SINK)).hasSize(4);
        assertThatThrownBy(() -> partitioner.partitions(SINK, key, null, producer.partitionsFor(SINK).size()))
                .hasMessageContaining("Partition count of a sink changed while running");
        assertThat(mock.asked).containsExactly(SINK, SINK);
    }

    @Test
    void anEmptyAnswerOrAFailedCallIsNotKept() {
        producer.initTransactions();
        producer.beginTransaction();
        assertThat(producer.partitionsFor(SINK)).isEmpty();
        mock.failNext = new TimeoutException("metadata not available");
        assertThatThrownBy(() -> producer.partitionsFor(SINK)).isSameAs(mock.failNext);

        mock.failNext = null;
        mock.partitions(SINK, 2);
        assertThat(producer.partitionsFor(SINK)).hasSize(2);
        assertThat(mock.asked).containsExactly(SINK, SINK, SINK);
    }

    @Test
    void everythingElseReachesTheProducerUnchanged() {
        producer.initTransactions();
        producer.beginTransaction();
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(SINK, 1, new byte[] {1}, new byte[] {2});
        producer.send(record);
        producer.send(record, (metadata, e) -> { });
        Map<TopicPartition, OffsetAndMetadata> offsets = Map.of(new TopicPartition("in", 0), new OffsetAndMetadata(7));
        producer.sendOffsetsToTransaction(offsets, new ConsumerGroupMetadata("app"));
        producer.flush();
        producer.commitTransaction();
        producer.beginTransaction();
        producer.abortTransaction();
        producer.close(Duration.ZERO);

        assertThat(mock.history()).containsExactly(record, record);
        assertThat(mock.consumerGroupOffsetsHistory()).containsExactly(Map.of("app", offsets));
        assertThat(mock.flushed()).isTrue();
        assertThat(mock.commitCount()).isEqualTo(1);
        assertThat(mock.transactionAborted()).isTrue();
        assertThat(mock.closed()).isTrue();
        assertThat(producer.metrics()).isSameAs(mock.metrics());
    }

    @Test
    void theStagesClientSupplierGivesEachStreamThreadThisProducer() {
        Producer<byte[], byte[]> supplied = new CapturingClientSupplier().getProducer(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9"));
        try {
            assertThat(supplied).isInstanceOf(TransactionPartitions.class);
        } finally {
            supplied.close(Duration.ZERO);
        }
    }

    @Test
    void everyProducerMethodIsDeclaredSoNoneFallsBackToAnInterfaceDefault() throws Exception {
        List<String> inherited = new ArrayList<>();
        for (Method m : Producer.class.getMethods()) {
            Method implementation = TransactionPartitions.class.getMethod(m.getName(), m.getParameterTypes());
            if (implementation.getDeclaringClass() != TransactionPartitions.class) {
                inherited.add(m.getName() + Arrays.toString(m.getParameterTypes()));
            }
        }
        assertThat(inherited).as("Producer methods TransactionPartitions does not forward").isEmpty();
    }

    /** A mock producer whose partition counts change on demand and which records each topic it is asked for. */
    private static final class Metadata extends MockProducer<byte[], byte[]> {

        private final Map<String, Integer> counts = new HashMap<>();
        private final List<String> asked = new ArrayList<>();
        private RuntimeException failNext;

        Metadata() {
            super(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        }

        void partitions(String topic, int count) {
            counts.put(topic, count);
        }

        @Override
        public List<PartitionInfo> partitionsFor(String topic) {
            asked.add(topic);
            if (failNext != null) {
                throw failNext;
            }
            return IntStream.range(0, counts.getOrDefault(topic, 0))
                    .mapToObj(p -> new PartitionInfo(topic, p, null, null, null)).toList();
        }
    }
}
