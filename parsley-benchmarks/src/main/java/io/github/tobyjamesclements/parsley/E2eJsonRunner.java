package io.github.tobyjamesclements.parsley;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * Runs the JSON variants (docs/performance.md, "Realistic variant"): {@code records / 2} JSON
 * order/payment pairs are written before the application starts (each batch's orders committed
 * before its payments, which {@code json-parsley}'s inputs carry stamped with their orders, as the
 * two-source variant's do, and so do {@code json-floor}'s; {@code json-baseline}'s are unstamped, as a
 * plain deployment's would be), then the pre-loaded throughput, stream-thread CPU and allocation per record are measured
 * until the last balance output is read. Outputs are checked: none missing or duplicated, no
 * payment's output before its order's, no negative balance, every customer's last balance 0.
 */
final class E2eJsonRunner {

    private final E2eOptions options;
    private final Admin admin;
    private final E2eApps apps;
    private final E2eTopics topics;
    private final E2eWorkload workload;

    E2eJsonRunner(E2eOptions options, Admin admin, E2eApps apps, E2eTopics topics) {
        this.options = options;
        this.admin = admin;
        this.apps = apps;
        this.topics = topics;
        this.workload = new E2eWorkload(options, true);
    }

    void run(E2eRun run, String id, Path stateDir, int records) throws Exception {
        String orders = id + "-orders";
        String payments = id + "-payments";
        String out = id + "-out";
        topics.create(orders, payments, out);
        int[] sizes = {records};
        boolean stamped = run.variant != E2eVariant.JSON_BASELINE;
        try (E2eOutputReader reader = new E2eOutputReader(options.bootstrap, out, options.partitions, sizes,
                E2eJson::outputId);
                KafkaProducer<byte[], byte[]> orderProducer = workload.transactionalProducer(id + "-orders-tx");
                KafkaProducer<byte[], byte[]> paymentProducer = workload.transactionalProducer(id + "-payments-tx")) {
            workload.pairs(orderProducer, paymentProducer, stamped ? new CausalClock(admin) : null, orders, payments,
                    0, records / 2, options.perTransaction / 2, 0, false, 0);
            AtomicLong runningAt = new AtomicLong();
            try (E2eApps.App app = switch (run.variant) {
                case JSON_PARSLEY -> apps.jsonParsley(id, orders, payments, out, stateDir, runningAt);
                case JSON_FLOOR -> apps.jsonFloor(id, orders, payments, out, stateDir, runningAt, options.partitions);
                default -> apps.jsonBaseline(id, orders, payments, out, stateDir, runningAt);
            }) {
                app.start();
                E2eWait.running(runningAt, options.timeoutSeconds);
                run.measurePreload(app, id, options, reader, runningAt.get(), records);
            }
            run.finish(reader, sizes);
        }
    }
}
