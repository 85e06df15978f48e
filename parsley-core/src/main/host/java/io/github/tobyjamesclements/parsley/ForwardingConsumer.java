package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.metrics.KafkaMetric;

/**
 * The plain half of {@link CapturingConsumer}: every {@link Consumer} method that the position
 * capture adds nothing to, forwarded as a direct call (no reflection: it runs on every stream
 * thread loop) after recording the delegate as this thread's polling consumer, which is what
 * {@link PositionCapture#committed} asks. Arguments, results and exceptions pass unchanged.
 *
 * <p>The methods the capture gives meaning to ({@code poll}, {@code position}, the
 * {@code subscribe} overloads that take a rebalance listener) are left abstract, so they cannot be
 * forwarded plainly by mistake. Every {@code Consumer} method is declared here or in the subclass,
 * none falls back to an interface default; {@code CapturingConsumerTests} fails if a Kafka upgrade
 * adds one that is not.
 */
abstract class ForwardingConsumer implements Consumer<byte[], byte[]> {

    private final Consumer<byte[], byte[]> delegate;

    ForwardingConsumer(Consumer<byte[], byte[]> delegate) {
        this.delegate = delegate;
    }

    /** The wrapped consumer, recorded as the one this thread calls (a consumer is confined to one thread). */
    final Consumer<byte[], byte[]> bound() {
        PositionCapture.calledOnThisThread(delegate);
        return delegate;
    }

    @Override
    public final Set<TopicPartition> assignment() {
        return bound().assignment();
    }

    @Override
    public final Set<String> subscription() {
        return bound().subscription();
    }

    @Override
    public final void subscribe(Collection<String> topics) {
        bound().subscribe(topics);
    }

    @Override
    public final void subscribe(Pattern pattern) {
        bound().subscribe(pattern);
    }

    @Override
    public final void subscribe(SubscriptionPattern pattern) {
        bound().subscribe(pattern);
    }

    @Override
    public final void assign(Collection<TopicPartition> partitions) {
        bound().assign(partitions);
    }

    @Override
    public final void unsubscribe() {
        bound().unsubscribe();
    }

    @Override
    public final void commitSync() {
        bound().commitSync();
    }

    @Override
    public final void commitSync(Duration timeout) {
        bound().commitSync(timeout);
    }

    @Override
    public final void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
        bound().commitSync(offsets);
    }

    @Override
    public final void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        bound().commitSync(offsets, timeout);
    }

    @Override
    public final void commitAsync() {
        bound().commitAsync();
    }

    @Override
    public final void commitAsync(OffsetCommitCallback callback) {
        bound().commitAsync(callback);
    }

    @Override
    public final void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
        bound().commitAsync(offsets, callback);
    }

    @Override
    public final void registerMetricForSubscription(KafkaMetric metric) {
        bound().registerMetricForSubscription(metric);
    }

    @Override
    public final void unregisterMetricFromSubscription(KafkaMetric metric) {
        bound().unregisterMetricFromSubscription(metric);
    }

    @Override
    public final void seek(TopicPartition partition, long offset) {
        bound().seek(partition, offset);
    }

    @Override
    public final void seek(TopicPartition partition, OffsetAndMetadata offsetAndMetadata) {
        bound().seek(partition, offsetAndMetadata);
    }

    @Override
    public final void seekToBeginning(Collection<TopicPartition> partitions) {
        bound().seekToBeginning(partitions);
    }

    @Override
    public final void seekToEnd(Collection<TopicPartition> partitions) {
        bound().seekToEnd(partitions);
    }

    @Override
    public final Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
        return bound().committed(partitions);
    }

    @Override
    public final Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions, Duration timeout) {
        return bound().committed(partitions, timeout);
    }

    @Override
    public final Uuid clientInstanceId(Duration timeout) {
        return bound().clientInstanceId(timeout);
    }

    @Override
    public final Map<MetricName, ? extends Metric> metrics() {
        return bound().metrics();
    }

    @Override
    public final List<PartitionInfo> partitionsFor(String topic) {
        return bound().partitionsFor(topic);
    }

    @Override
    public final List<PartitionInfo> partitionsFor(String topic, Duration timeout) {
        return bound().partitionsFor(topic, timeout);
    }

    @Override
    public final Map<String, List<PartitionInfo>> listTopics() {
        return bound().listTopics();
    }

    @Override
    public final Map<String, List<PartitionInfo>> listTopics(Duration timeout) {
        return bound().listTopics(timeout);
    }

    @Override
    public final Set<TopicPartition> paused() {
        return bound().paused();
    }

    @Override
    public final void pause(Collection<TopicPartition> partitions) {
        bound().pause(partitions);
    }

    @Override
    public final void resume(Collection<TopicPartition> partitions) {
        bound().resume(partitions);
    }

    @Override
    public final Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> timestamps) {
        return bound().offsetsForTimes(timestamps);
    }

    @Override
    public final Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> timestamps,
            Duration timeout) {
        return bound().offsetsForTimes(timestamps, timeout);
    }

    @Override
    public final Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions) {
        return bound().beginningOffsets(partitions);
    }

    @Override
    public final Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions, Duration timeout) {
        return bound().beginningOffsets(partitions, timeout);
    }

    @Override
    public final Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
        return bound().endOffsets(partitions);
    }

    @Override
    public final Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions, Duration timeout) {
        return bound().endOffsets(partitions, timeout);
    }

    @Override
    public final OptionalLong currentLag(TopicPartition partition) {
        return bound().currentLag(partition);
    }

    @Override
    public final ConsumerGroupMetadata groupMetadata() {
        return bound().groupMetadata();
    }

    @Override
    public final void enforceRebalance() {
        bound().enforceRebalance();
    }

    @Override
    public final void enforceRebalance(String reason) {
        bound().enforceRebalance(reason);
    }

    @Override
    public final void close() {
        bound().close();
    }

    @Override
    public final void close(Duration timeout) {
        bound().close(timeout);
    }

    @Override
    public final void close(CloseOptions option) {
        bound().close(option);
    }

    @Override
    public final void wakeup() {
        bound().wakeup();
    }
}
