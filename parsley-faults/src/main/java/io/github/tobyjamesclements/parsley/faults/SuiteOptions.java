package io.github.tobyjamesclements.parsley.faults;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The fault suite's command line. Durations are the (a 45 s pause, a 30 s cut-off);
 * {@code --quick} divides every fault and recovery duration by three for a trial run.
 *
 * @param faults the phases to run, in order
 * @param quick whether durations are shortened
 * @param work the directory for brokers, applications, logs and the report
 * @param classpath the classpath of brokers and applications
 * @param brokerNamespace the network namespace the brokers run in, or null for loopback
 * @param brokerHosts the brokers' client addresses in that namespace
 * @param ordersPerSecond the load's order rate (as many payments again)
 */
record SuiteOptions(List<FaultPhase> faults, boolean quick, Path work, String classpath, String brokerNamespace,
        List<String> brokerHosts, int ordersPerSecond) {

    static final String USAGE = """
            usage: FaultSuite [--faults a,b,...] [--quick] [--work DIR] [--rate N]
                              [--broker-netns NS --broker-hosts H1,H2,H3]
              --faults        phases to run, in order (default: all): %s
              --quick         every fault and recovery duration divided by three
              --work          directory for brokers, applications, logs and report.md (default target/faults)
              --rate          orders per second, as many payments again (default 10)
              --broker-netns  run the brokers in this network namespace (set by fault-suite.sh); needed by client-cut
              --broker-hosts  the brokers' client addresses in it
            """.formatted(FaultPhase.names());

    /**
     * Parses the arguments.
     *
     * @throws IllegalArgumentException with the usage text on a bad argument
     */
    static SuiteOptions parse(String[] args) {
        List<FaultPhase> faults = List.of(FaultPhase.values());
        boolean quick = false;
        Path work = Path.of("target", "faults");
        String namespace = null;
        List<String> hosts = List.of();
        int rate = 10;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick" -> quick = true;
                case "--faults" -> faults = FaultPhase.parse(value(args, ++i, a));
                case "--work" -> work = Path.of(value(args, ++i, a));
                case "--rate" -> rate = Integer.parseInt(value(args, ++i, a));
                case "--broker-netns" -> namespace = value(args, ++i, a);
                case "--broker-hosts" -> hosts = Arrays.asList(value(args, ++i, a).split(","));
                default -> throw new IllegalArgumentException("Unknown argument '" + a + "'.\n" + USAGE);
            }
        }
        if (faults.contains(FaultPhase.CLIENT_CUT) && namespace == null) {
            throw new IllegalArgumentException("client-cut needs the brokers in a network namespace of their own"
                    + " (run fault-suite.sh as root, or leave client-cut out with --faults).\n" + USAGE);
        }
        if (namespace != null && hosts.size() != 3) {
            throw new IllegalArgumentException("--broker-netns needs three --broker-hosts.\n" + USAGE);
        }
        return new SuiteOptions(new ArrayList<>(faults), quick, work, System.getProperty("java.class.path"),
                namespace, hosts, rate);
    }

    private static String value(String[] args, int i, String name) {
        if (i >= args.length) {
            throw new IllegalArgumentException(name + " needs a value.\n" + USAGE);
        }
        return args[i];
    }

    /** A fault or recovery duration: the issue's, or a third of it with {@code --quick}. */
    Duration scaled(int seconds) {
        return Duration.ofSeconds(quick ? Math.max(5, seconds / 3) : seconds);
    }

    BrokerNetwork network() {
        return brokerNamespace == null ? BrokerNetwork.loopback(3)
                : BrokerNetwork.namespace(brokerNamespace, brokerHosts);
    }
}
