package io.github.tobyjamesclements.parsley;

import java.util.List;
import java.util.Map;
import java.util.function.DoubleBinaryOperator;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Samples every 50 ms, until stopped, the {@code records-held} gauge summed over the tasks of
 * every instance (each task records it as holds start and end), the held heads of
 * {@link CausalStreams#explainHolds()} and the longest hold age.
 */
final class E2eHoldSampler {
    private final E2eRun.Holds holds = new E2eRun.Holds();
    private final Thread thread;
    private volatile boolean stop;

    E2eHoldSampler(List<CausalStreams> instances) {
        thread = new Thread(() -> {
            while (!stop) {
                sample(instances);
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "e2e-hold-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void sample(List<CausalStreams> instances) {
        double held = 0;
        double age = 0;
        int heads = 0;
        for (CausalStreams streams : instances) {
            held += held(streams);
            age = Math.max(age, gauge(streams, "records-held-age-max-ms", Math::max));
            heads += streams.explainHolds().size();
        }
        synchronized (holds) {
            holds.samples++;
            holds.heldSum += (long) held;
            holds.heldMax = Math.max(holds.heldMax, held);
            if (held > 0 || heads > 0) {
                holds.samplesWithHeld++;
            }
            holds.headsMax = Math.max(holds.headsMax, heads);
            holds.ageMaxMs = Math.max(holds.ageMaxMs, age);
        }
    }

    /** The {@code records-held} gauge summed over the instance's tasks. */
    static double held(CausalStreams streams) {
        return gauge(streams, "records-held", Double::sum);
    }

    private static double gauge(CausalStreams streams, String name, DoubleBinaryOperator combine) {
        double out = 0;
        for (Map.Entry<MetricName, ? extends Metric> e : streams.metrics().entrySet()) {
            MetricName n = e.getKey();
            if (!n.group().equals(MetricNames.GROUP) || n.tags().containsKey("topic") || !n.name().equals(name)) {
                continue;
            }
            if (e.getValue().metricValue() instanceof Number num && !Double.isNaN(num.doubleValue())) {
                out = combine.applyAsDouble(out, num.doubleValue());
            }
        }
        return out;
    }

    E2eRun.Holds stop() throws InterruptedException {
        stop = true;
        thread.join(5_000);
        synchronized (holds) {
            return holds;
        }
    }
}
