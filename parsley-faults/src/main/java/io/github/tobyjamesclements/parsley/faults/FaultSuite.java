package io.github.tobyjamesclements.parsley.faults;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;

/**
 * The broker fault suite (issue 45; docs/verification.md, "Broker faults"). Starts a 3-broker
 * {@link BrokerCluster}, the Parsley application and the plain control each in a JVM of its own,
 * and the {@link OrderLoad}; measures both applications idle, then under traffic without a fault,
 * then runs each selected {@link FaultPhase}. After each phase the load pauses, both applications
 * catch up, and {@link DeliveryCheck} judges everything they delivered so far; the phase's row goes
 * to {@code report.md}. Exits 0 if Parsley passed every phase, 1 if not, 2 on a usage error.
 * Run it through {@code parsley-faults/fault-suite.sh}, which builds the classpath and the network
 * namespaces.
 */
public final class FaultSuite {

    private static final Duration CATCH_UP = Duration.ofSeconds(180);

    private final FaultRun run;
    private final SuiteReport report;

    private FaultSuite(FaultRun run, SuiteReport report) {
        this.run = run;
        this.report = report;
    }

    /**
     * Runs the suite.
     *
     * @param args see {@code --help} ({@link SuiteOptions#USAGE})
     */
    public static void main(String[] args) throws Exception {
        SuiteOptions options;
        try {
            options = SuiteOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(run(options) ? 0 : 1);
    }

    private static boolean run(SuiteOptions o) throws Exception {
        Path work = o.work().toAbsolutePath();
        FaultTopics topics = FaultTopics.of("faults");
        try (BrokerCluster cluster = BrokerCluster.start(work.resolve("cluster"), o.classpath(), o.network(),
                Duration.ofSeconds(180)); Admin admin = cluster.admin()) {
            topics.create(admin);
            AppProcess parsley = app(o, cluster, "parsley", "faults-parsley", work);
            AppProcess plain = app(o, cluster, "plain", "faults-plain", work);
            try (OrderLoad load = new OrderLoad(cluster.bootstrap(), topics.orders(), topics.payments(), 24,
                    o.ordersPerSecond(), Duration.ofMillis(300),
                    line -> System.out.println(LocalTime.now() + " " + line))) {
                FaultRun run = new FaultRun(o, cluster, admin, topics, parsley, plain, load, "faults-parsley",
                        "faults-plain");
                String header = "Options: faults " + o.faults().stream().map(FaultPhase::cliName).toList()
                        + (o.quick() ? ", quick" : "") + ", " + o.ordersPerSecond() + " orders/s and as many payments"
                        + "; brokers " + cluster.bootstrap()
                        + (o.brokerNamespace() == null ? " (loopback)" : " in namespace " + o.brokerNamespace())
                        + "; build " + System.getenv().getOrDefault("FAULTS_BUILD", "unknown") + ".";
                FaultSuite suite = new FaultSuite(run, new SuiteReport(work.resolve("report.md"), header));
                try {
                    return suite.phases(o);
                } finally {
                    parsley.close();
                    plain.close();
                }
            }
        }
    }

    private boolean phases(SuiteOptions o) throws Exception {
        long started = System.nanoTime();
        run.parsley.start();
        run.plain.start();
        Duration timeout = Duration.ofSeconds(180);
        run.event("parsley RUNNING after " + run.awaitRunning(run.parsley, started, timeout).toMillis()
                + " ms, plain after " + run.awaitRunning(run.plain, started, timeout).toMillis() + " ms");
        phase("idle (no input)", () -> {
            run.hold(o.scaled(30));
            return "none";
        });
        run.load.start();
        phase("baseline (traffic, no fault)", () -> {
            run.hold(o.scaled(30));
            return "none";
        });
        for (FaultPhase f : o.faults()) {
            run.event("phase " + f.cliName() + ": " + f.description());
            phase(f.cliName(), () -> {
                String target = Faults.inject(f, run);
                run.hold(o.scaled(30));
                return target;
            });
        }
        run.event(report.allPassed() ? "every phase passed" : "some phase FAILED; see the report");
        return report.allPassed();
    }

    private void phase(String name, Callable<String> action) throws Exception {
        int deathsBefore = run.parsley.deaths().size() + run.plain.deaths().size();
        int parsleyErrors = run.parsley.errorCount();
        int plainErrors = run.plain.errorCount();
        run.parsley.mark();
        run.plain.mark();
        long from = System.currentTimeMillis();
        String target = action.call();
        long to = System.currentTimeMillis();
        double seconds = (to - from) / 1000.0;
        long held = run.parsley.maxHeldSinceMark();
        long parsleyDown = run.parsley.maxNotRunningSinceMark();
        long plainDown = run.plain.maxNotRunningSinceMark();
        double parsleyRate = run.parsley.commitsSinceMark() / seconds;
        double plainRate = run.plain.commitsSinceMark() / seconds;
        run.load.pause();
        String bootstrap = run.cluster.bootstrap();
        DeliveryCheck.Inputs in = DeliveryCheck.inputs(bootstrap, run.topics);
        boolean caughtUp = awaitCaughtUp(in.labels().size());
        FaultTopics t = run.topics;
        PhaseResult result = new PhaseResult(name, target, Math.round(seconds),
                DeliveryCheck.check(bootstrap, in, t.notes(), t.ledger(), from, to),
                DeliveryCheck.check(bootstrap, in, t.plainNotes(), t.plainLedger(), from, to),
                held, parsleyRate, plainRate, parsleyDown, plainDown,
                DeliveryCheck.maxGap(TopicReader.readAll(bootstrap, t.payments()), from, to),
                newDeaths(deathsBefore), run.parsley.errorCount() - parsleyErrors,
                run.plain.errorCount() - plainErrors, caughtUp);
        report.add(result);
        run.event("phase " + name + ": " + (result.passed() ? "pass" : "FAIL") + " parsley=" + result.parsley()
                + " plain=" + result.plain() + " load failures so far=" + run.load.failures());
        report.write(run.events());
        run.load.resume();
    }

    private boolean awaitCaughtUp(int inputs) throws InterruptedException {
        long end = System.nanoTime() + CATCH_UP.toNanos();
        while (System.nanoTime() < end) {
            String b = run.cluster.bootstrap();
            if (DeliveryCheck.distinctDelivered(b, run.topics.ledger()) >= inputs
                    && DeliveryCheck.distinctDelivered(b, run.topics.plainLedger()) >= inputs) {
                return true;
            }
            run.hold(Duration.ofSeconds(2));
        }
        run.event("not caught up within " + CATCH_UP.toSeconds() + " s of the load pausing");
        return false;
    }

    private List<String> newDeaths(int before) {
        List<String> all = new ArrayList<>();
        run.parsley.deaths().forEach(d -> all.add("parsley " + d));
        run.plain.deaths().forEach(d -> all.add("plain " + d));
        return all.subList(Math.min(before, all.size()), all.size());
    }

    private static AppProcess app(SuiteOptions o, BrokerCluster cluster, String kind, String id, Path work) {
        List<String> cmd = List.of(BrokerNode.javaBinary(), "-Xms256m", "-Xmx512m", "-XX:+UseSerialGC",
                // Log lines on the same locked stream as FaultApp's own lines, so neither splits the other.
                "-Dorg.slf4j.simpleLogger.logFile=System.out", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dorg.slf4j.simpleLogger.log.io.github.tobyjamesclements.parsley=info",
                "-Dorg.slf4j.simpleLogger.showDateTime=true", "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
                "-cp", o.classpath(), FaultApp.class.getName(), kind, cluster.bootstrap(), "faults", id,
                work.resolve("state-" + kind).toString());
        return new AppProcess(kind, cmd, work.resolve(kind + ".log"));
    }
}
