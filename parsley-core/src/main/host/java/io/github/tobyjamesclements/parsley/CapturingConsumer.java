package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.common.TopicPartition;

/**
 * The Streams main consumer as the position capture sees it (protocol.md §12.3): a direct,
 * reflection-free wrapper, since every call of the stream thread loop goes through it.
 *
 * <p>Contract, beyond forwarding each call to the wrapped consumer:
 * <ul>
 * <li>every call records the wrapped consumer as the one this thread polls
 *     ({@link PositionCapture#committed} asks it);</li>
 * <li>{@code poll} returns the wrapped poll's records unchanged, after recording each assigned
 *     partition's position and the highest offset returned ({@link PositionCapture#view});</li>
 * <li>{@code subscribe} with a rebalance listener (topic collection, {@link Pattern} or
 *     {@link SubscriptionPattern}) hands the wrapped consumer a listener that first resets the
 *     views of the partitions revoked, assigned or lost, then calls the given one;</li>
 * <li>an {@link OffsetOutOfRangeException} from {@code poll} or either {@code position} overload
 *     (the calls Kafka documents as raising it when no reset policy is set, as Streams sets for
 *     the main consumer) is retention outrunning the stage: it is refused as an
 *     {@link IllegalStateException} naming the lost offset ranges, protocol.md §16.3, so Streams
 *     cannot reset past the loss silently. Other calls do not translate it.</li>
 * </ul>
 * Every other exception, including the other {@code InvalidOffsetException}s Streams resets on,
 * propagates unchanged.
 */
final class CapturingConsumer extends ForwardingConsumer {

    CapturingConsumer(Consumer<byte[], byte[]> delegate) {
        super(delegate);
    }

    @Override
    public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
        Consumer<byte[], byte[]> consumer = bound();
        ConsumerRecords<byte[], byte[]> records;
        try {
            records = consumer.poll(timeout);
        } catch (OffsetOutOfRangeException e) {
            throw retentionOutran(consumer, e);
        }
        PositionCapture.capture(consumer, records);
        return records;
    }

    @Override
    public long position(TopicPartition partition) {
        Consumer<byte[], byte[]> consumer = bound();
        try {
            return consumer.position(partition);
        } catch (OffsetOutOfRangeException e) {
            throw retentionOutran(consumer, e);
        }
    }

    @Override
    public long position(TopicPartition partition, Duration timeout) {
        Consumer<byte[], byte[]> consumer = bound();
        try {
            return consumer.position(partition, timeout);
        } catch (OffsetOutOfRangeException e) {
            throw retentionOutran(consumer, e);
        }
    }

    @Override
    public void subscribe(Collection<String> topics, ConsumerRebalanceListener listener) {
        bound().subscribe(topics, PositionCapture.resetting(listener));
    }

    @Override
    public void subscribe(Pattern pattern, ConsumerRebalanceListener listener) {
        bound().subscribe(pattern, PositionCapture.resetting(listener));
    }

    @Override
    public void subscribe(SubscriptionPattern pattern, ConsumerRebalanceListener listener) {
        bound().subscribe(pattern, PositionCapture.resetting(listener));
    }

    /**
     * The fail-closed error for records deleted before this application consumed them: each lost
     * range runs from the position the consumer asked for to the log start minus one, or to "?"
     * when the log start cannot be asked (the error must not be lost to a second failure).
     */
    private static IllegalStateException retentionOutran(Consumer<byte[], byte[]> consumer,
            OffsetOutOfRangeException e) {
        Map<TopicPartition, String> lost = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        Map<TopicPartition, Long> starts;
        try {
            starts = consumer.beginningOffsets(e.offsetOutOfRangePartitions().keySet());
        } catch (RuntimeException cannotAsk) {
            starts = Map.of();
        }
        for (Map.Entry<TopicPartition, Long> p : e.offsetOutOfRangePartitions().entrySet()) {
            Long start = starts.get(p.getKey());
            lost.put(p.getKey(), "[" + p.getValue() + ", " + (start == null ? "?" : start - 1) + "]");
        }
        return new IllegalStateException("Retention deleted records this application had not consumed; lost offset"
                + " ranges=" + lost + "; causal order over them cannot be established: fix retention, then"
                + " reset the application's state and offsets deliberately", e);
    }
}
