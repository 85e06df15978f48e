package io.github.tobyjamesclements.parsley;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.ConfigException;

/**
 * The JVM-wide named clocks behind {@link CausalClock#shared}. A clock is bound to one cluster
 * (its bootstrap servers) because it names topics by the ids that cluster assigned; a second
 * cluster under the same name would have its topic names resolved against the first.
 */
final class SharedClocks {

    private static final Map<String, Entry> CLOCKS = new ConcurrentHashMap<>();

    private SharedClocks() {
    }

    static CausalClock clock(String name, Map<String, ?> clientConfigs) {
        if (name == null || name.isBlank()) {
            throw new ConfigException(CausalProducerInterceptor.CLOCK_NAME_CONFIG, name, "must not be blank");
        }
        Set<String> servers = servers(clientConfigs);
        Entry entry = CLOCKS.computeIfAbsent(name, n -> new Entry(servers, adminConfigs(n, clientConfigs)));
        if (!entry.servers.equals(servers)) {
            throw new ConfigException("Causal clock '" + name + "' is bound to bootstrap.servers=" + entry.servers
                    + " but a client for bootstrap.servers=" + servers + " asked for it. A clock names topics by the"
                    + " ids of one cluster: set " + CausalProducerInterceptor.CLOCK_NAME_CONFIG
                    + " to a different name for each cluster");
        }
        return entry.clock;
    }

    private static Set<String> servers(Map<String, ?> configs) {
        Object value = configs.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        Set<String> servers = new TreeSet<>();
        if (value instanceof Iterable<?> list) {
            list.forEach(s -> servers.add(String.valueOf(s).trim()));
        } else if (value != null) {
            for (String s : String.valueOf(value).split(",")) {
                if (!s.isBlank()) {
                    servers.add(s.trim());
                }
            }
        }
        if (servers.isEmpty()) {
            throw new ConfigException(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, value,
                    "a causal clock resolves topic ids through the client's cluster and needs its bootstrap servers");
        }
        return servers;
    }

    /** The client's connection and security settings, without its producer or consumer settings. */
    private static Map<String, Object> adminConfigs(String name, Map<String, ?> clientConfigs) {
        Map<String, Object> admin = new HashMap<>();
        Set<String> known = AdminClientConfig.configNames();
        clientConfigs.forEach((k, v) -> {
            if (known.contains(k) && v != null) {
                admin.put(k, v);
            }
        });
        admin.put(AdminClientConfig.CLIENT_ID_CONFIG, "parsley-clock-" + name);
        return admin;
    }

    /** One named clock; its admin client is created when the first topic must be resolved. */
    private static final class Entry {
        private final Set<String> servers;
        private final CausalClock clock;
        private final Map<String, Object> adminConfigs;
        private Admin admin;

        Entry(Set<String> servers, Map<String, Object> adminConfigs) {
            this.servers = servers;
            this.adminConfigs = adminConfigs;
            this.clock = new CausalClock(this::describe);
        }

        private synchronized UUID describe(String topic) {
            if (admin == null) {
                admin = Admin.create(adminConfigs);
            }
            return CausalClock.describe(admin, topic);
        }
    }
}
