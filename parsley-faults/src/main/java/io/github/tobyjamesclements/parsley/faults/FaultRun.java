package io.github.tobyjamesclements.parsley.faults;

import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/**
 * What the phases of one suite run act on: the cluster, the two application processes, the load,
 * and an event log. {@link #hold(Duration)} is how a phase lets time pass: it keeps watching the
 * applications, and one that died without being killed is recorded and started again, as an
 * operator would restart it, so later phases still run.
 */
final class FaultRun {

    final SuiteOptions options;
    final BrokerCluster cluster;
    final Admin admin;
    final FaultTopics topics;
    final AppProcess parsley;
    final AppProcess plain;
    final OrderLoad load;
    final String parsleyId;
    final String plainId;
    private final List<String> events = new ArrayList<>();

    FaultRun(SuiteOptions options, BrokerCluster cluster, Admin admin, FaultTopics topics, AppProcess parsley,
            AppProcess plain, OrderLoad load, String parsleyId, String plainId) {
        this.options = options;
        this.cluster = cluster;
        this.admin = admin;
        this.topics = topics;
        this.parsley = parsley;
        this.plain = plain;
        this.load = load;
        this.parsleyId = parsleyId;
        this.plainId = plainId;
    }

    /** Logs one event line, timestamped, to the console and the report. */
    synchronized void event(String line) {
        String stamped = LocalTime.now().truncatedTo(ChronoUnit.MILLIS) + " " + line;
        events.add(stamped);
        System.out.println(stamped);
        System.out.flush();
    }

    synchronized List<String> events() {
        return List.copyOf(events);
    }

    /** Lets {@code d} pass while watching the applications. */
    void hold(Duration d) throws InterruptedException {
        long end = System.nanoTime() + d.toNanos();
        while (System.nanoTime() < end) {
            supervise();
            TimeUnit.MILLISECONDS.sleep(Math.min(250, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
        }
    }

    /** Restarts an application that died on its own, after recording the death. */
    void supervise() throws InterruptedException {
        for (AppProcess app : List.of(parsley, plain)) {
            if (app.diedUnexpectedly()) {
                List<String> deaths = app.deaths();
                event("DEATH " + app.kind() + ": " + deaths.get(deaths.size() - 1) + "; restarting it");
                app.kill();
                app.start();
            }
        }
    }

    /**
     * Holds until {@code app} is RUNNING, or until {@code timeout} after {@code startNanos} (a
     * {@link System#nanoTime()}); returns the time from {@code startNanos} to the moment it became
     * RUNNING (the timeout if it did not), so applications started together are each timed to their
     * own moment however long the other took.
     */
    Duration awaitRunning(AppProcess app, long startNanos, Duration timeout) throws InterruptedException {
        while (!app.state().equals("RUNNING") && System.nanoTime() - startNanos < timeout.toNanos()) {
            hold(Duration.ofMillis(100));
        }
        return app.state().equals("RUNNING") ? Duration.ofNanos(app.runningSinceNanos() - startNanos) : timeout;
    }

    int transactionCoordinator() throws InterruptedException {
        return Coordinators.transactions(admin, parsleyId);
    }

    int groupCoordinator() throws InterruptedException {
        return Coordinators.group(admin, parsleyId);
    }

    /** Waits until every replica is in sync again, watching the applications meanwhile. */
    void awaitInSync() throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (true) {
            try {
                cluster.awaitInSync(admin, Duration.ofSeconds(2));
                return;
            } catch (IllegalStateException e) {
                if (System.nanoTime() > end) {
                    event("replicas still out of sync after 180 s: " + e.getMessage());
                    return;
                }
                supervise();
            }
        }
    }
}
