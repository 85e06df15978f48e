package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.metrics.KafkaMetric;

/**
 * A stream thread's producer whose {@link #partitionsFor} answers each topic once per transaction.
 * Kafka Streams asks for a sink's partitions before every record it sends through a
 * {@code StreamPartitioner}, and a causal stage has one on every sink (the stamping door chose the
 * partition, protocol.md §12.2); the producer's answer costs a clock read, a synchronised metadata
 * update and three hash lookups per record, about 4% of a copy stage's stream thread.
 *
 * <p>The first call per topic after {@link #beginTransaction} asks the producer; later calls in the
 * same transaction get that list. The sink partitioner's check that the partition count has not
 * changed therefore sees the producer's metadata as it was when the transaction's first record to
 * the topic was sent: a repartitioned sink still fails a send, at the latest in the transaction
 * after the one in which the producer learnt of it (Parsley runs only {@code exactly_once_v2}, so
 * every send is inside a transaction). Every record still goes to the partition its stamp names,
 * which Streams passes to {@link #send} explicitly. An empty answer and a failing call are not
 * kept. A commit or abort is also told to the thread's read views ({@link ThreadCommits}). Every
 * other method is forwarded unchanged.
 *
 * <p>Confined to the thread that sends, as Kafka Streams uses a stream thread's producer.
 */
final class TransactionPartitions implements Producer<byte[], byte[]> {

    private final Producer<byte[], byte[]> delegate;
    /** This transaction's answers by topic name. */
    private final Map<String, List<PartitionInfo>> answers = new HashMap<>();
    /** The topic and answer of the last call: a stage sending to one sink skips the hash lookup. */
    private String lastTopic;
    private List<PartitionInfo> lastAnswer;

    TransactionPartitions(Producer<byte[], byte[]> delegate) {
        this.delegate = delegate;
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic) {
        if (topic == lastTopic) {
            return lastAnswer;
        }
        List<PartitionInfo> answer = answers.get(topic);
        if (answer == null) {
            answer = delegate.partitionsFor(topic);
            if (answer == null || answer.isEmpty()) {
                return answer;
            }
            answers.put(topic, answer);
        }
        lastTopic = topic;
        lastAnswer = answer;
        return answer;
    }

    @Override
    public void beginTransaction() {
        forget();
        delegate.beginTransaction();
    }

    private void forget() {
        answers.clear();
        lastTopic = null;
        lastAnswer = null;
    }

    @Override
    public void initTransactions() {
        delegate.initTransactions();
    }

    @Override
    public void sendOffsetsToTransaction(Map<TopicPartition, OffsetAndMetadata> offsets,
            ConsumerGroupMetadata groupMetadata) {
        delegate.sendOffsetsToTransaction(offsets, groupMetadata);
    }

    @Override
    public void commitTransaction() {
        delegate.commitTransaction();
        ThreadCommits.committed();
    }

    @Override
    public void abortTransaction() {
        try {
            delegate.abortTransaction();
        } finally {
            ThreadCommits.aborted();
        }
    }

    @Override
    public void registerMetricForSubscription(KafkaMetric metric) {
        delegate.registerMetricForSubscription(metric);
    }

    @Override
    public void unregisterMetricFromSubscription(KafkaMetric metric) {
        delegate.unregisterMetricFromSubscription(metric);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
        return delegate.send(record);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
        return delegate.send(record, callback);
    }

    @Override
    public void flush() {
        delegate.flush();
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        return delegate.metrics();
    }

    @Override
    public Uuid clientInstanceId(Duration timeout) {
        return delegate.clientInstanceId(timeout);
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public void close(Duration timeout) {
        delegate.close(timeout);
    }
}
