package io.github.tobyjamesclements.parsley.faults;

import io.github.tobyjamesclements.parsley.CausalStreams;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * One application of a fault run in a JVM of its own, so the suite can SIGKILL it: {@code parsley}
 * or {@code plain}. It installs no uncaught-exception handler (an operator's default) and prints,
 * for {@link AppProcess} to read, a {@code STATE} line on every state change and once a second a
 * {@code STATUS} line with its state, the records Parsley holds and the transactions its stream
 * threads committed ({@code commit-total}).
 *
 * <p>Usage: {@code FaultApp parsley|plain <bootstrap> <topic-prefix> <application-id> <state-dir>}
 */
public final class FaultApp {

    private FaultApp() {
    }

    /**
     * Runs the application until the JVM is killed.
     *
     * @param args kind, bootstrap servers, topic prefix, application id, state directory
     */
    public static void main(String[] args) throws InterruptedException {
        if (args.length != 5 || !(args[0].equals("parsley") || args[0].equals("plain"))) {
            System.err.println("usage: FaultApp parsley|plain <bootstrap> <topic-prefix> <application-id> <state-dir>");
            System.exit(2);
        }
        FaultTopics topics = FaultTopics.of(args[2]);
        Properties props = FaultApps.streamsProps(args[1], args[3], Path.of(args[4]));
        Supplier<KafkaStreams.State> state;
        Supplier<Map<MetricName, ? extends Metric>> metrics;
        IntSupplier held;
        if (args[0].equals("parsley")) {
            CausalStreams streams = FaultApps.parsley(args[3], topics).streams(props);
            streams.setStateListener(FaultApp::printState);
            streams.start();
            state = streams::state;
            metrics = streams::metrics;
            held = () -> streams.explainHolds().size();
        } else {
            KafkaStreams streams = FaultApps.plain(props, topics);
            streams.setStateListener(FaultApp::printState);
            streams.start();
            state = streams::state;
            metrics = streams::metrics;
            held = () -> 0;
        }
        while (true) {
            int holding;
            try {
                holding = held.getAsInt();
            } catch (RuntimeException e) {
                holding = -1; // not running: nothing to explain
            }
            System.out.printf("STATUS %d %s held=%d commits=%d%n", System.currentTimeMillis(), state.get(),
                    holding, commits(metrics.get()));
            System.out.flush();
            TimeUnit.SECONDS.sleep(1);
        }
    }

    private static void printState(KafkaStreams.State now, KafkaStreams.State before) {
        System.out.printf("STATE %d %s from %s%n", System.currentTimeMillis(), now, before);
        System.out.flush();
    }

    /** Transactions committed by the stream threads: under exactly-once v2 one per thread commit. */
    static long commits(Map<MetricName, ? extends Metric> metrics) {
        return metrics.entrySet().stream()
                .filter(e -> e.getKey().group().equals("stream-thread-metrics")
                        && e.getKey().name().equals("commit-total"))
                .mapToLong(e -> ((Number) e.getValue().metricValue()).longValue()).sum();
    }
}
