package io.github.tobyjamesclements.parsley;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * The liveness feed of the Streams host (protocol.md §12.3): the main consumer, wrapped by
 * {@link #wrap}, records after every poll, for each assigned partition, the consumer position and
 * the highest offset any poll returned, in a map local to the polling (stream) thread.
 *
 * <p>Views are reset when a partition is assigned, revoked or lost, so a view never pairs a
 * position with another assignment's records. A poll that fails because the committed position
 * fell below the log start is retention outrunning the stage: {@link CapturingConsumer} fails it
 * closed, naming the lost range (protocol.md §16.3), instead of letting Streams reset silently.
 */
final class PositionCapture {

    private static final ThreadLocal<Views> VIEWS = ThreadLocal.withInitial(Views::new);
    /** The main consumer used on this thread: a consumer is confined to the one thread that calls it. */
    private static final ThreadLocal<Consumer<byte[], byte[]>> POLLING = new ThreadLocal<>();

    private PositionCapture() {
    }

    /** The consumer position and the highest offset returned so far (−1 for none). */
    record View(long position, long lastReturned) {
    }

    /**
     * One polling thread's views, and a count of their changes: a reader on that thread may keep
     * the views it read until the count moves, instead of looking them up per record.
     */
    static final class Views {

        private final Map<TopicPartition, View> byPartition = new HashMap<>();
        private long changes;

        View get(TopicPartition tp) {
            return byPartition.get(tp);
        }

        void put(TopicPartition tp, View view) {
            byPartition.put(tp, view);
            changes++;
        }

        void remove(TopicPartition tp) {
            byPartition.remove(tp);
            changes++;
        }

        /** How many times the views changed: equal counts, equal views. */
        long changes() {
            return changes;
        }
    }

    /** This thread's view of a partition; absent where nothing was captured. */
    static View view(TopicPartition tp) {
        return VIEWS.get().get(tp);
    }

    /**
     * This thread's views, live: the views a thread's polls update are the same for the thread's
     * life, so a caller on the polling thread may keep them instead of looking them up per record.
     */
    static Views views() {
        return VIEWS.get();
    }

    /**
     * The committed positions of the given partitions in the application's consumer group, asked
     * of the main consumer polling on this (stream) thread, as Kafka Streams does at task init:
     * a partition without a committed offset is absent (protocol.md §7.1). Without a captured
     * consumer on this thread (the topology was not started through {@code Parsley.streams}) the
     * answer is empty, and the first record fails on the missing position feed instead (F12).
     */
    static Map<TopicPartition, Long> committed(Set<TopicPartition> partitions) {
        Consumer<byte[], byte[]> consumer = POLLING.get();
        if (consumer == null) {
            return Map.of();
        }
        Map<TopicPartition, Long> out = new HashMap<>();
        consumer.committed(partitions).forEach((tp, offset) -> {
            if (offset != null) {
                out.put(tp, offset.offset());
            }
        });
        return out;
    }

    /** The main consumer, wrapped so that it feeds this capture (see {@link CapturingConsumer}). */
    static CapturingConsumer wrap(Consumer<byte[], byte[]> consumer) {
        return new CapturingConsumer(consumer);
    }

    /** Records the consumer this thread calls, for {@link #committed}. */
    static void calledOnThisThread(Consumer<byte[], byte[]> consumer) {
        POLLING.set(consumer);
    }

    /**
     * Records, after a poll, the highest offset it returned per partition, then the position of
     * every assigned partition that has one now.
     */
    static void capture(Consumer<byte[], byte[]> consumer, ConsumerRecords<byte[], byte[]> records) {
        Views views = VIEWS.get();
        for (TopicPartition tp : records.partitions()) {
            var list = records.records(tp);
            long last = list.get(list.size() - 1).offset();
            View v = views.get(tp);
            views.put(tp, new View(v == null ? -1 : v.position(), Math.max(last, v == null ? -1 : v.lastReturned())));
        }
        for (TopicPartition tp : consumer.assignment()) {
            long position;
            try {
                position = consumer.position(tp, Duration.ZERO);
            } catch (TimeoutException | InvalidOffsetException notKnownYet) {
                // An offset lookup or reset is pending; the next poll resolves or raises it. Thrown
                // from here it would replace this poll's result, and Streams would drop its records.
                continue;
            }
            View v = views.get(tp);
            views.put(tp, new View(position, v == null ? -1 : v.lastReturned()));
        }
    }

    /** The listener to hand the consumer in place of {@code listener}. */
    static ConsumerRebalanceListener resetting(ConsumerRebalanceListener listener) {
        return new Resetting(listener);
    }

    /** Resets the views of partitions whose assignment changes, then delegates. */
    private record Resetting(ConsumerRebalanceListener delegate) implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            partitions.forEach(VIEWS.get()::remove);
            delegate.onPartitionsRevoked(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            partitions.forEach(VIEWS.get()::remove);
            delegate.onPartitionsAssigned(partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            partitions.forEach(VIEWS.get()::remove);
            delegate.onPartitionsLost(partitions);
        }
    }
}
