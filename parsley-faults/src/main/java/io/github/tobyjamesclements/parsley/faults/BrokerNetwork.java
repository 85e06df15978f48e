package io.github.tobyjamesclements.parsley.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Where a cluster's brokers listen and how their JVMs are started: on loopback with ports the
 * operating system picks (the CI test), or inside a network namespace with one client address per
 * broker, so that clients can be cut off from one broker by a route in their own namespace (the
 * fault suite). Immutable.
 *
 * @param clientHosts the client listener address of broker {@code i + 1}; never null
 * @param launchPrefix the command that runs a broker JVM in its place (empty on loopback,
 *        {@code ip netns exec <ns>} in a namespace); never null
 * @param freePorts whether ports are chosen free on this host (loopback) rather than fixed (a
 *        private namespace, where nothing else listens)
 */
public record BrokerNetwork(List<String> clientHosts, List<String> launchPrefix, boolean freePorts) {

    private static final int FIXED_CLIENT_PORT = 9092;
    private static final int FIXED_INTERNAL_BASE = 19090;
    private static final int FIXED_CONTROLLER_BASE = 19190;

    /** Validates and copies. */
    public BrokerNetwork {
        clientHosts = List.copyOf(clientHosts);
        launchPrefix = List.copyOf(launchPrefix);
    }

    /** {@code brokers} brokers on 127.0.0.1, each listener on a free port. */
    public static BrokerNetwork loopback(int brokers) {
        return new BrokerNetwork(Collections.nCopies(brokers, "127.0.0.1"), List.of(), true);
    }

    /** Brokers in network namespace {@code namespace}, broker {@code i + 1} serving clients on {@code hosts[i]}. */
    public static BrokerNetwork namespace(String namespace, List<String> hosts) {
        return new BrokerNetwork(hosts, List.of("ip", "netns", "exec", namespace), false);
    }

    int size() {
        return clientHosts.size();
    }

    /**
     * The three ports of every broker (client, inter-broker, controller), index {@code id - 1}. Free
     * ports are all held open until the last is chosen, so no two are the same.
     */
    List<int[]> ports() {
        List<int[]> out = new ArrayList<>();
        if (!freePorts) {
            for (int id = 1; id <= size(); id++) {
                out.add(new int[] {FIXED_CLIENT_PORT, FIXED_INTERNAL_BASE + id, FIXED_CONTROLLER_BASE + id});
            }
            return out;
        }
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int id = 1; id <= size(); id++) {
                int[] three = new int[3];
                for (int i = 0; i < 3; i++) {
                    ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                    held.add(s);
                    three[i] = s.getLocalPort();
                }
                out.add(three);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot find free loopback ports", e);
        } finally {
            for (ServerSocket s : held) {
                try {
                    s.close();
                } catch (IOException e) {
                    // Closing a listening socket nobody connected to; nothing to recover.
                }
            }
        }
    }
}
