package io.github.tobyjamesclements.parsley;

import java.util.function.LongSupplier;
import org.apache.kafka.common.metrics.MeasurableStat;
import org.apache.kafka.common.metrics.MetricConfig;

/**
 * Gauges of {@link StageMetrics} that the stream thread sets directly rather than through
 * {@code Sensor#record}, which takes the sensor's lock and reads the clock: the hold gauges change
 * with every hold and release, per record while a stage holds. Each is written by the task's stream
 * thread and read by any thread (a metrics reporter, a scrape).
 */
final class DirectStats {

    private DirectStats() {
    }

    /** The last value set. */
    static class Latest implements MeasurableStat {

        private volatile double value;

        void set(double v) {
            value = v;
        }

        @Override
        public void record(MetricConfig config, double v, long timeMs) {
            value = v;
        }

        @Override
        public double measure(MetricConfig config, long now) {
            return value;
        }
    }

    /**
     * The age of a hold, computed when the metric is read ({@code now} is the registry's wall clock)
     * from the hold start last set, so a short hold reads its true age rather than the age at the
     * last sample; {@link StageMetrics#NO_HOLD} reads 0.
     */
    static final class HoldAge extends Latest {

        HoldAge() {
            set(StageMetrics.NO_HOLD);
        }

        @Override
        public double measure(MetricConfig config, long now) {
            double since = super.measure(config, now);
            return since < 0 ? 0 : Math.max(0, now - since);
        }
    }

    /** A count the node keeps itself, read when the metric is read: nothing is recorded per send. */
    record ReadThrough(LongSupplier count) implements MeasurableStat {

        @Override
        public void record(MetricConfig config, double value, long timeMs) {
        }

        @Override
        public double measure(MetricConfig config, long now) {
            return count.getAsLong();
        }
    }
}
