package io.github.tobyjamesclements.parsley.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /** Refuses to add a route in the namespace of the host's init process: that would change the host's routes. */
    static void requirePrivateNamespace() throws IOException {
        Path mine = Files.readSymbolicLink(Path.of("/proc/self/ns/net"));
        Path host = Files.readSymbolicLink(Path.of("/proc/1/ns/net"));
        if (mine.equals(host)) {
            throw new IllegalStateException("Refusing to cut clients off: this process runs in the host's network"
                    + " namespace (" + mine + "); run the suite through fault-suite.sh, which makes a private one");
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
