package io.github.tobyjamesclements.parsley;

import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * One task's side of the liveness feed (protocol.md §12.3): reads the positions
 * {@link PositionCapture} recorded for the task's channels on this stream thread, and reports a
 * position only once every record the polls returned below it was fed (H2). The one place the
 * processor reads captured positions.
 */
final class PositionFeed {

    private final Map<TopicPartition, Channel> channels;
    private boolean checked;

    /**
     * {@code channels} keys each of the task's channels by its topic partition;
     * {@code checked} skips the F12 check, for a host without captured positions by design.
     */
    PositionFeed(Map<TopicPartition, Channel> channels, boolean checked) {
        this.channels = channels;
        this.checked = checked;
    }

    /** F12: without captured positions the liveness feed is missing; fail rather than wedge later. */
    void requireCaptured(TopicPartition source, String stage, String where) {
        if (checked) {
            return;
        }
        if (PositionCapture.view(source) == null) {
            throw new IllegalStateException("No captured consumer positions for a stage's source; stage="
                    + stage + ", " + where + "; start the application through Parsley.streams (fail closed)");
        }
        checked = true;
    }

    /**
     * Passes {@code advance} each channel whose captured position may be reported: every record
     * the polls returned below it is at or below the offset {@code fedThrough} has for it.
     */
    void sweep(Map<Channel, Long> fedThrough, BiConsumer<Channel, Long> advance) {
        for (Map.Entry<TopicPartition, Channel> e : channels.entrySet()) {
            PositionCapture.View view = PositionCapture.view(e.getKey());
            if (view == null || view.position() < 0
                    || view.lastReturned() > fedThrough.getOrDefault(e.getValue(), -1L)) {
                continue;
            }
            advance.accept(e.getValue(), view.position());
        }
    }
}
