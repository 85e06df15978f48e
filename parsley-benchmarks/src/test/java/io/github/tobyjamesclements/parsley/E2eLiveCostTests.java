package io.github.tobyjamesclements.parsley;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class E2eLiveCostTests {

    @Test
    void aMeterChargesTheCpuThisJvmSpentToTheRecordsAndReadsTheBrokerFromItsProcessId() {
        long self = ProcessHandle.current().pid();
        E2eLiveCost.Meter meter = E2eLiveCost.start("no-stream-thread-has-this-name", self, new MockProducer<>(), Map::of);
        long spin = 0;
        // 50 ms of this thread's CPU, not of the wall clock: on a loaded machine a wall-clock spin gets less
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + 50_000_000;
        while (threads.getCurrentThreadCpuTime() < until) {
            spin += Long.numberOfTrailingZeros(spin + System.nanoTime());
        }
        meter.produced();

        E2eLiveCost cost = meter.stop(1_000, 2);

        assertThat(spin).isPositive();
        // 50 ms of this thread's CPU over 1,000 records is at least 50 us each, in this JVM
        assertThat(cost.harnessUs()).isGreaterThan(40);
        assertThat(cost.streamUs()).isZero();
        // the "broker" here is this JVM: the process clock ticks coarser, but the spin shows in it too
        assertThat(cost.brokerUs()).isGreaterThan(0);
        assertThat(cost.machineUs()).isEqualTo(cost.harnessUs() + cost.brokerUs());
        // 1,000 records produced over the 50 ms spin: at most 20,000 a second
        assertThat(cost.producedRate()).isPositive().isLessThanOrEqualTo(20_000);
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
    }

    @Test
    void theApplicationsRequestsAreItsClientsCountersSummedAndChargedPerThousandRecords() {
        Map<MetricName, Metric> metrics = new HashMap<>();
        AtomicDouble mainFetches = counter(metrics, "consumer-fetch-manager-metrics", "fetch-total", "main", 100);
        counter(metrics, "consumer-fetch-manager-metrics", "fetch-total", "restore", 7);
        AtomicDouble requests = counter(metrics, "producer-metrics", "request-total", "producer", 50);
        counter(metrics, "producer-metrics", "record-send-total", "producer", 1_000_000);
        E2eLiveCost.Meter meter = E2eLiveCost.start("none", 0, new MockProducer<>(), () -> metrics);
        mainFetches.set(300);
        requests.set(70);
        meter.produced();

        E2eLiveCost cost = meter.stop(2_000, 1);

        // 200 more fetches (the restore consumer's unchanged 7 cancel out) over 2,000 records
        assertThat(cost.fetchesPerK()).isEqualTo(100.0);
        assertThat(cost.producerRequestsPerK()).isEqualTo(10.0);
    }

    /** A settable cumulative metric of one client, in {@code metrics}. */
    private static AtomicDouble counter(Map<MetricName, Metric> metrics, String group, String name, String client,
            double value) {
        AtomicDouble v = new AtomicDouble(value);
        MetricName n = new MetricName(name, group, "", Map.of("client-id", client));
        metrics.put(n, new Metric() {
            @Override
            public MetricName metricName() {
                return n;
            }

            @Override
            public Object metricValue() {
                return v.get();
            }
        });
        return v;
    }

    private static final class AtomicDouble {
        private double value;

        AtomicDouble(double value) {
            this.value = value;
        }

        void set(double v) {
            value = v;
        }

        double get() {
            return value;
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
}
