package io.github.tobyjamesclements.parsley.faults;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The faults of issue 45, each run as one phase of the suite while traffic flows. */
enum FaultPhase {

    /** kill -9 of the broker coordinating the Parsley application's transactions; restarted after the down time. */
    COORDINATOR_KILL("kill -9 of the transaction coordinator, restarted after 30 s"),
    /** Every broker in turn: controlled shutdown, restart, replicas back in sync. */
    ROLLING_RESTART("rolling restart: each broker SIGTERM, restart, in sync again"),
    /** SIGSTOP of the group coordinator for 45 s, then SIGCONT. */
    GROUP_COORDINATOR_PAUSE("SIGSTOP of the group coordinator for 45 s"),
    /** Clients cut off from the transaction coordinator's client address for 30 s (a blackhole route). */
    CLIENT_CUT("clients cut off from the transaction coordinator for 30 s"),
    /** kill -9 of a broker; while it is down, both applications SIGKILLed and started again. */
    APP_KILL_BROKER_DOWN("applications kill -9 while a broker is down, restarted while it stays down");

    private final String description;

    FaultPhase(String description) {
        this.description = description;
    }

    /** The phase's command-line name, e.g. {@code coordinator-kill}. */
    String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    String description() {
        return description;
    }

    static String names() {
        return Arrays.stream(values()).map(FaultPhase::cliName).collect(Collectors.joining(","));
    }

    static List<FaultPhase> parse(String list) {
        return Arrays.stream(list.split(",")).map(String::trim).map(n -> Arrays.stream(values())
                .filter(p -> p.cliName().equals(n)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown fault '" + n + "'; known: " + names())))
                .toList();
    }
}
