package io.github.tobyjamesclements.parsley.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts every client of the suite (it runs in a network namespace of its own, made by
 * fault-suite.sh, with the applications it starts) off from one broker address, with a blackhole
 * route in that namespace, and heals the cut. The host's routes and firewall are never touched: the
 * suite refuses to run the cut outside its namespace.
 */
final class ClientCut {

    private ClientCut() {
    }

    static void cut(String host) throws IOException, InterruptedException {
        requirePrivateNamespace();
        ip("route", "add", "blackhole", host + "/32");
    }

    static void heal(String host) throws IOException, InterruptedException {
        ip("route", "del", "blackhole", host + "/32");
    }

    /**
     * Refuses to add a route unless this process runs in a named network namespace of the suite's
     * ({@code pfs-*}, made by fault-suite.sh): anywhere else the route would change the host's.
     */
    static void requirePrivateNamespace() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("ip", "netns", "identify").redirectErrorStream(true).start();
        String name = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.waitFor() != 0 || !name.startsWith("pfs-")) {
            throw new IllegalStateException("Refusing to cut clients off: this process is not in a network namespace"
                    + " of the suite (ip netns identify: '" + name + "'); run it through fault-suite.sh");
        }
    }

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("Command failed: " + String.join(" ", cmd));
        }
    }
}
