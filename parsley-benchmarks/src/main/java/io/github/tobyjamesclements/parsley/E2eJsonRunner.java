package io.github.tobyjamesclements.parsley;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * Runs the JSON variants (docs/design-record/performance-results.md, "Results: realistic variant"):
 * {@code records / 2} JSON order/payment pairs are written before the application starts (each batch's orders committed
 * before its payments, which {@code json-parsley}'s inputs carry stamped with their orders, as the
 * two-source variant's do, and so do both JSON floors'; {@code json-baseline}'s are unstamped, as a
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
                case JSON_FLOOR -> apps.jsonFloor(id, orders, payments, out, stateDir, runningAt, options.partitions,
                        E2eJson.FLOOR_STAMP);
                case JSON_FLOOR_BARE -> apps.jsonFloor(id, orders, payments, out, stateDir, runningAt,
                        options.partitions, null);
                default -> apps.jsonBaseline(id, orders, payments, out, stateDir, runningAt);
            }) {
                app.start();
                E2eWait.running(runningAt, options.timeoutSeconds);
                run.measurePreload(app, id, options, reader, runningAt.get(), records);
            }
            run.finish(reader, sizes);
        }
    }

    /**
     * The report's JSON section: each JSON variant that {@code ran} over the plain JSON application
     * of its round, Parsley over the JSON floor, and the JSON floor over its bare twin (what its
     * output header alone costs).
     */
    static void ratios(StringBuilder s, E2eRatios t, Predicate<E2eVariant> ran) {
        s.append("### JSON balance stage: Parsley / plain Streams doing the same work, same round\n\n");
        s.append("Both parse JSON orders and payments, fold a per-customer balance in a logged, cached key-value"
                + " store and emit JSON (target: pre-loaded throughput >= 0.90). The JSON floor, where it ran, is the"
                + " plain application with stamped inputs, a constant " + E2eJson.FLOOR_STAMP_BYTES + "-byte `vc`"
                + " header on every output and Parsley's sink partitioner; the bare JSON floor is the same without"
                + " the output header.\n\n");
        t.head();
        E2eVariant v = E2eVariant.JSON_PARSLEY;
        E2eVariant f = E2eVariant.JSON_FLOOR;
        E2eVariant b = E2eVariant.JSON_FLOOR_BARE;
        if (ran.test(v)) {
            t.row("Pre-loaded throughput", v, r -> r.preloadRate);
            t.row("Stream-thread CPU per record (pre-loaded)", v, r -> r.streamCpuUs);
            t.row("Stream-thread allocation per record (pre-loaded)", v, r -> r.allocatedBytes);
            t.row("Changelog records per input", v, r -> r.changelogPerRecord);
        }
        if (ran.test(f)) {
            rateAndCpu(t, "JSON floor / plain", f, E2eVariant.JSON_BASELINE);
        }
        if (ran.test(v) && ran.test(f)) {
            rateAndCpu(t, "Parsley / JSON floor", v, f);
        }
        if (ran.test(b)) {
            rateAndCpu(t, "Bare JSON floor / plain", b, E2eVariant.JSON_BASELINE);
        }
        if (ran.test(f) && ran.test(b)) {
            rateAndCpu(t, "JSON floor / bare JSON floor", f, b);
        }
        s.append('\n');
    }

    /** The pre-loaded throughput and stream-thread CPU per record of {@code v} over {@code base}, same round. */
    private static void rateAndCpu(E2eRatios t, String name, E2eVariant v, E2eVariant base) {
        t.over(name + ": pre-loaded throughput", v, base, r -> r.preloadRate);
        t.over(name + ": stream-thread CPU per record (pre-loaded)", v, base, r -> r.streamCpuUs);
    }
}
