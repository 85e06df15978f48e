package io.github.tobyjamesclements.parsley;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * One task's side of the liveness feed (protocol.md §12.3): reads the positions
 * {@link PositionCapture} recorded for the task's channels on this stream thread, and reports a
 * position only once every record the polls returned below it was fed (H2). The one place the
 * processor reads captured positions, and the keeper of what the task fed on each channel since it
 * started.
 *
 * <p>Called once or more per record, so it keeps its per-channel offsets in arrays indexed by the
 * task's fixed set of channels: recording a record and sweeping allocate nothing.
 */
final class PositionFeed {

    /** Receives a position that may be reported for a channel. */
    @FunctionalInterface
    interface Advance {
        void to(Channel channel, long position);
    }

    private final TopicPartition[] partitions;
    private final Channel[] channels;
    private final Map<Channel, Integer> index = new HashMap<>();
    private final long[] firstFed;
    private final long[] fedThrough;
    private boolean checked;
    /** The stream thread's captured views, taken at the first sweep, which runs on that thread. */
    private Map<TopicPartition, PositionCapture.View> views;

    /**
     * {@code channels} keys each of the task's channels by its topic partition;
     * {@code checked} skips the F12 check, for a host without captured positions by design.
     */
    PositionFeed(Map<TopicPartition, Channel> channels, boolean checked) {
        int n = channels.size();
        this.partitions = new TopicPartition[n];
        this.channels = new Channel[n];
        this.firstFed = new long[n];
        this.fedThrough = new long[n];
        int i = 0;
        for (Map.Entry<TopicPartition, Channel> e : channels.entrySet()) {
            partitions[i] = e.getKey();
            this.channels[i] = e.getValue();
            index.put(e.getValue(), i);
            firstFed[i] = VectorClock.NOTHING;
            fedThrough[i] = VectorClock.NOTHING;
            i++;
        }
        this.checked = checked;
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

    /** Records that the record at {@code offset} of {@code c} was fed to the node (or dead-lettered in its place). */
    void fed(Channel c, long offset) {
        int i = index.get(c);
        if (firstFed[i] == VectorClock.NOTHING) {
            firstFed[i] = offset;
        }
        fedThrough[i] = Math.max(fedThrough[i], offset);
    }

    /** The first offset this task fed on {@code c}, or -1 before its first record. */
    long firstFed(Channel c) {
        return firstFed[index.get(c)];
    }

    /** Whether this task fed a record of {@code c} since it started. */
    boolean fedBefore(Channel c) {
        return fedThrough[index.get(c)] != VectorClock.NOTHING;
    }

    /**
     * Passes {@code advance} each channel whose captured position may be reported: every record
     * the polls returned below it was fed.
     */
    void sweep(Advance advance) {
        if (views == null) {
            views = PositionCapture.views();
        }
        for (int i = 0; i < partitions.length; i++) {
            PositionCapture.View view = views.get(partitions[i]);
            if (view == null || view.position() < 0 || view.lastReturned() > fedThrough[i]) {
                continue;
            }
            advance.to(channels[i], view.position());
        }
    }
}
