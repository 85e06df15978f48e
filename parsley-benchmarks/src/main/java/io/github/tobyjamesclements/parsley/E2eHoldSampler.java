package io.github.tobyjamesclements.parsley;

import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Samples every 50 ms, until stopped, the {@code records-held} gauge summed over the tasks (each
 * task records it as holds start and end), the held heads of {@link CausalStreams#explainHolds()}
 * and the longest hold age.
 */
final class E2eHoldSampler {
    private final E2eRun.Holds holds = new E2eRun.Holds();
    private final Thread thread;
    private volatile boolean stop;

    E2eHoldSampler(CausalStreams streams) {
        thread = new Thread(() -> {
            while (!stop) {
                sample(streams);
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

    private void sample(CausalStreams streams) {
        double held = 0;
        double age = 0;
        for (Map.Entry<MetricName, ? extends Metric> e : streams.metrics().entrySet()) {
            MetricName n = e.getKey();
            if (!n.group().equals(MetricNames.GROUP) || n.tags().containsKey("topic")) {
                continue;
            }
            Object value = e.getValue().metricValue();
            if (!(value instanceof Number num) || Double.isNaN(num.doubleValue())) {
                continue;
            }
            if (n.name().equals("records-held")) {
                held += num.doubleValue();
            } else if (n.name().equals("records-held-age-max-ms")) {
                age = Math.max(age, num.doubleValue());
            }
        }
        int heads = streams.explainHolds().size();
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

    E2eRun.Holds stop() throws InterruptedException {
        stop = true;
        thread.join(5_000);
        synchronized (holds) {
            return holds;
        }
    }
}
