package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class E2eLiveCostTests {

    @Test
    void aMeterChargesTheCpuThisJvmSpentToTheRecordsAndReadsTheBrokerFromItsProcessId() {
        long self = ProcessHandle.current().pid();
        E2eLiveCost.Meter meter = E2eLiveCost.start("no-stream-thread-has-this-name", self, new MockProducer<>(), Map::of);
        long spin = 0;
        // 200 ms of this thread's CPU, not of the wall clock: on a loaded machine a wall-clock spin gets less
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + 200_000_000;
        while (threads.getCurrentThreadCpuTime() < until) {
            spin += Long.numberOfTrailingZeros(spin + System.nanoTime());
        }
        meter.produced();

        E2eLiveCost cost = meter.stop(1_000, 2);

        assertThat(spin).isPositive();
        // 200 ms of this thread's CPU over 1,000 records is at least 200 us each, in this JVM; the process clock
        // reads in 10 ms ticks (times(2) on Linux) and truncates each reading, so it may come a tick (10 us here) short
        assertThat(cost.harnessUs()).isGreaterThan(180);
        assertThat(cost.streamUs()).isZero();
        // the "broker" here is this JVM: the process clock ticks coarser, but the spin shows in it too
        assertThat(cost.brokerUs()).isGreaterThan(0);
        assertThat(cost.machineUs()).isEqualTo(cost.harnessUs() + cost.brokerUs());
        // 1,000 records produced over the 200 ms spin: at most 5,000 a second
        assertThat(cost.producedRate()).isPositive().isLessThanOrEqualTo(5_000);
        assertThat(cost.commitMs()).as("a mock producer reports no commit time").isNaN();
    }

    @Test
    void withoutTheBrokersProcessIdItsShareIsUnknownNotZero() {
        E2eLiveCost.Meter meter = E2eLiveCost.start("none", 0, new MockProducer<>(), Map::of);
        meter.produced();
        E2eLiveCost cost = meter.stop(10, 1);

        assertThat(cost.brokerUs()).isNaN();
        assertThat(cost.machineUs()).isNaN();
        assertThat(cost.fetchesPerK()).as("no client reports its fetches").isNaN();
        assertThat(cost.pollsPerK()).as("no stream thread reports its polls").isNaN();
    }

    @Test
    void theApplicationsRequestsAreItsClientsCountersSummedAndChargedPerThousandRecords() {
        try (Metrics metrics = new Metrics()) {
            AtomicLong mainFetches = counter(metrics, "consumer-fetch-manager-metrics", "fetch-total", "main", 100);
            AtomicLong restoreFetches = counter(metrics, "consumer-fetch-manager-metrics", "fetch-total", "restore", 7);
            AtomicLong requests = counter(metrics, "producer-metrics", "request-total", "producer", 50);
            AtomicLong polls = counter(metrics, "stream-thread-metrics", "poll-total", "thread-1", 10);
            counter(metrics, "producer-metrics", "record-send-total", "producer", 1_000_000);
            E2eLiveCost.Meter meter = E2eLiveCost.start("none", 0, new MockProducer<>(), metrics::metrics);
            mainFetches.set(300);
            restoreFetches.set(47);
            requests.set(70);
            polls.set(510);
            meter.produced();

            E2eLiveCost cost = meter.stop(2_000, 1);

            // 200 more fetches by the main consumer and 40 by the restore consumer, over 2,000 records: either
            // client alone would give 100 or 20
            assertThat(cost.fetchesPerK()).isEqualTo(120.0);
            assertThat(cost.producerRequestsPerK()).isEqualTo(10.0);
            assertThat(cost.pollsPerK()).as("500 polls over 2,000 records").isEqualTo(250.0);
        }
    }

    @Test
    void theCommitTimeIsTheProducersOwnMetricAndUnknownWhereItHasNone() {
        Map<String, Object> config = Map.of("bootstrap.servers", "127.0.0.1:9", "client.id", "e2e-live-cost-test");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            assertThat(E2eLiveCost.commitNanos(producer)).isZero();
        }
        assertThat(E2eLiveCost.commitNanos(new MockProducer<byte[], byte[]>())).isNaN();
    }

    /** A settable cumulative metric of one client, registered in {@code metrics} as Kafka's clients register theirs. */
    private static AtomicLong counter(Metrics metrics, String group, String name, String client, long value) {
        AtomicLong v = new AtomicLong(value);
        metrics.addMetric(metrics.metricName(name, group, Map.of("client-id", client)),
                (Gauge<Double>) (config, now) -> (double) v.get());
        return v;
    }
}
