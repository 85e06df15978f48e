package io.github.tobyjamesclements.parsley.faults;

import java.io.IOException;
import java.time.Duration;

/**
 * How each {@link FaultPhase} is done to the cluster. Every fault ends with the cluster whole
 * again (every broker running, the route removed); the phase then lets traffic flow while the
 * applications recover.
 */
final class Faults {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private Faults() {
    }

    /** Does {@code phase} and returns what it acted on, for the report. */
    static String inject(FaultPhase phase, FaultRun run) throws InterruptedException, IOException {
        switch (phase) {
            case COORDINATOR_KILL:
                return coordinatorKill(run);
            case ROLLING_RESTART:
                return rollingRestart(run);
            case GROUP_COORDINATOR_PAUSE:
                return groupCoordinatorPause(run);
            case CLIENT_CUT:
                return clientCut(run);
            case APP_KILL_BROKER_DOWN:
                return appKillBrokerDown(run);
            default:
                throw new IllegalArgumentException("No fault for phase " + phase);
        }
    }

    private static String coordinatorKill(FaultRun run) throws InterruptedException {
        int broker = run.transactionCoordinator();
        run.event("kill -9 broker " + broker + " (transaction coordinator)");
        run.cluster.kill(broker);
        run.hold(run.options.scaled(30));
        restart(run, broker);
        return "broker " + broker + " (transaction coordinator)";
    }

    private static String rollingRestart(FaultRun run) throws InterruptedException {
        for (int broker = 1; broker <= run.cluster.size(); broker++) {
            run.event("SIGTERM broker " + broker + " (rolling restart)");
            run.cluster.stop(broker, Duration.ofSeconds(60));
            restart(run, broker);
            run.awaitInSync();
            run.event("replicas in sync again after broker " + broker);
        }
        return "brokers 1.." + run.cluster.size();
    }

    private static String groupCoordinatorPause(FaultRun run) throws InterruptedException, IOException {
        int broker = run.groupCoordinator();
        run.event("SIGSTOP broker " + broker + " (group coordinator)");
        run.cluster.pause(broker);
        try {
            run.hold(run.options.scaled(45));
        } finally {
            run.cluster.resume(broker);
            run.event("SIGCONT broker " + broker);
        }
        return "broker " + broker + " (group coordinator)";
    }

    private static String clientCut(FaultRun run) throws InterruptedException, IOException {
        int broker = run.transactionCoordinator();
        String host = run.cluster.clientHost(broker);
        run.event("cut clients off from broker " + broker + " (transaction coordinator, " + host + ")");
        ClientCut.cut(host);
        try {
            run.hold(run.options.scaled(30));
        } finally {
            ClientCut.heal(host);
            run.event("clients reach broker " + broker + " again");
        }
        return "broker " + broker + " (transaction coordinator)";
    }

    private static String appKillBrokerDown(FaultRun run) throws InterruptedException {
        int broker = run.transactionCoordinator();
        run.event("kill -9 broker " + broker + " (transaction coordinator)");
        run.cluster.kill(broker);
        run.hold(Duration.ofSeconds(5));
        run.event("kill -9 both applications while broker " + broker + " is down");
        run.parsley.kill();
        run.plain.kill();
        run.hold(Duration.ofSeconds(2));
        long started = System.nanoTime();
        run.parsley.start();
        run.plain.start();
        run.event("applications started again; broker " + broker + " still down");
        Duration parsleyUp = run.awaitRunning(run.parsley, started, START_TIMEOUT);
        Duration plainUp = run.awaitRunning(run.plain, started, START_TIMEOUT);
        run.event("RUNNING again after restart: parsley " + parsleyUp.toMillis() + " ms, plain "
                + plainUp.toMillis() + " ms (" + run.parsley.state() + ", " + run.plain.state() + ")");
        run.hold(run.options.scaled(30));
        restart(run, broker);
        return "broker " + broker + "; applications RUNNING after " + parsleyUp.toMillis() + " ms (parsley), "
                + plainUp.toMillis() + " ms (plain)";
    }

    private static void restart(FaultRun run, int broker) throws InterruptedException {
        run.cluster.restart(broker, START_TIMEOUT);
        run.event("broker " + broker + " started again");
    }
}
