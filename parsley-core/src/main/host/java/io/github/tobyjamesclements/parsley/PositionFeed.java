package io.github.tobyjamesclements.parsley;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * One task's side of the liveness feed (protocol.md §12.3): reads the positions
 * {@link PositionCapture} recorded for the task's channels on this stream thread, and reports a
 * position only once every record the polls returned below it was fed (H2). The one place the
 * processor reads captured positions, and the keeper of what the task fed on each channel since it
 * started.
 *
 * <p>Called several times per record, so each channel's offsets live in one {@link Fed} that the
 * processor finds once per record, by the record's topic (a task has one partition of each), and
 * reads and updates in place: recording a record and sweeping allocate nothing.
 */
final class PositionFeed {

    /** Receives a position that may be reported for a channel. */
    @FunctionalInterface
    interface Advance {
        void to(Channel channel, long position);
    }

    /** What this task fed on one channel since it started. */
    static final class Fed {

        private final Channel channel;
        private final TopicPartition partition;
        private long first = VectorClock.NOTHING;
        private long through = VectorClock.NOTHING;
        /** The captured view of the channel as of {@link #seen} changes of the views; null for none. */
        private PositionCapture.View view;

        private Fed(Channel channel, TopicPartition partition) {
            this.channel = channel;
            this.partition = partition;
        }

        Channel channel() {
            return channel;
        }

        /** Whether this task fed a record of the channel since it started. */
        boolean any() {
            return through != VectorClock.NOTHING;
        }

        /** The first offset this task fed on the channel, or -1 before its first record. */
        long first() {
            return first;
        }
    }

    /** One per channel; a task has a partition of a few topics, so a scan finds one faster than a hash. */
    private final Fed[] fed;
    private boolean checked;
    /** The stream thread's captured views, taken at the first sweep, which runs on that thread. */
    private PositionCapture.Views views;
    /** The views' change count the channels' kept views are as of: they change only when a poll (or a rebalance) does. */
    private long seen = -1;
    /** The topic string {@link #of} last found a channel for, and that channel's feed. */
    private String lastTopic;
    private Fed lastFed;

    /**
     * {@code channels} keys each of the task's channels by its topic partition, one partition per
     * topic; {@code checked} skips the F12 check, for a host without captured positions by design.
     */
    PositionFeed(Map<TopicPartition, Channel> channels, boolean checked) {
        this.fed = new Fed[channels.size()];
        Set<String> topics = new HashSet<>();
        int i = 0;
        for (Map.Entry<TopicPartition, Channel> e : channels.entrySet()) {
            fed[i++] = new Fed(e.getValue(), e.getKey());
            if (!topics.add(e.getKey().topic())) {
                throw new IllegalArgumentException("A task consumes one partition per topic; topic="
                        + e.getKey().topic() + ", channels=" + channels.keySet());
            }
        }
        this.checked = checked;
    }

    /** What this task fed on its channel of {@code topic}, or null for a topic it does not consume. */
    Fed of(String topic) {
        // the consumer names a partition's records with one topic string, not the assignment's: a
        // reference check on the last one found spares String.equals comparing bytes per record
        if (topic == lastTopic) {
            return lastFed;
        }
        for (Fed f : fed) {
            if (f.partition.topic().equals(topic)) {
                lastTopic = topic;
                lastFed = f;
                return f;
            }
        }
        return null;
    }

    /** F12: without captured positions the liveness feed is missing; fail rather than wedge later. */
    void requireCaptured(RecordMetadata md, String stage) {
        if (checked) {
            return;
        }
        if (PositionCapture.view(new TopicPartition(md.topic(), md.partition())) == null) {
            throw new IllegalStateException("No captured consumer positions for a stage's source; stage="
                    + stage + ", " + ArrivalChecks.where(md) + "; start the application through Parsley.streams (fail closed)");
        }
        checked = true;
    }

    /** Records that the record at {@code offset} of {@code f}'s channel was fed (or dead-lettered in its place). */
    void fed(Fed f, long offset) {
        if (f.first == VectorClock.NOTHING) {
            f.first = offset;
        }
        f.through = Math.max(f.through, offset);
    }

    /**
     * Passes {@code advance} each channel whose captured position may be reported: every record
     * the polls returned below it was fed.
     */
    void sweep(Advance advance) {
        if (views == null) {
            views = PositionCapture.views();
        }
        boolean changed = views.changes() != seen;
        seen = views.changes();
        for (Fed f : fed) {
            if (changed) {
                f.view = views.get(f.partition);
            }
            PositionCapture.View view = f.view;
            if (view == null || view.position() < 0 || view.lastReturned() > f.through) {
                continue;
            }
            advance.to(f.channel, view.position());
        }
    }
}
