package io.github.tobyjamesclements.parsley;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;

/**
 * The JVM-wide named clocks behind {@link CausalClock#shared}: one per name and cluster, because a
 * clock names topics by the ids one cluster assigned, and a claim on another cluster's channel is
 * one no stage of this cluster could wait for. The cluster is known by its bootstrap servers; two
 * clients of one cluster that list them differently would silently keep separate clocks and miss
 * each other's causes, so the second such clock to reach the cluster fails instead.
 */
final class SharedClocks {

    private static final Map<String, Entry> CLOCKS = new ConcurrentHashMap<>();
    private static final Map<String, Set<String>> CLUSTERS = new ConcurrentHashMap<>();

    private SharedClocks() {
    }

    static CausalClock clock(String name, Map<String, ?> clientConfigs) {
        if (name == null || name.isBlank()) {
            throw new ConfigException(CausalProducerInterceptor.CLOCK_NAME_CONFIG, name, "must not be blank");
        }
        Set<String> servers = servers(clientConfigs);
        return CLOCKS.computeIfAbsent(name + "@" + servers,
                k -> new Entry(name, servers, adminConfigs(name, clientConfigs))).clock;
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

    /**
     * The client's settings minus those only a producer or consumer understands: connection and
     * security settings reach the admin client, including keys no Kafka config names (a security
     * provider's own objects).
     */
    private static Map<String, Object> adminConfigs(String name, Map<String, ?> clientConfigs) {
        Map<String, Object> admin = new HashMap<>();
        Set<String> adminNames = AdminClientConfig.configNames();
        clientConfigs.forEach((k, v) -> {
            boolean clientOnly = ProducerConfig.configNames().contains(k) || ConsumerConfig.configNames().contains(k);
            if (v != null && !k.startsWith("parsley.") && (adminNames.contains(k) || !clientOnly)) {
                admin.put(k, v);
            }
        });
        admin.put(AdminClientConfig.CLIENT_ID_CONFIG, "parsley-clock-" + name);
        return admin;
    }

    /** One named clock; its admin client is created when the first topic must be resolved. */
    private static final class Entry {
        private final String name;
        private final Set<String> servers;
        private final CausalClock clock;
        private final Map<String, Object> adminConfigs;
        private Admin admin;

        Entry(String name, Set<String> servers, Map<String, Object> adminConfigs) {
            this.name = name;
            this.servers = servers;
            this.adminConfigs = adminConfigs;
            this.clock = new CausalClock(this::describe);
        }

        private synchronized UUID describe(String topic) {
            if (admin == null) {
                Admin created = Admin.create(adminConfigs);
                try {
                    claimCluster(created);
                } catch (RuntimeException e) {
                    created.close();
                    throw e;
                }
                admin = created;
            }
            return CausalClock.describe(admin, topic);
        }

        private void claimCluster(Admin created) {
            String clusterId;
            try {
                clusterId = created.describeCluster().clusterId().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("Cannot reach the cluster of causal clock '" + name
                        + "'; bootstrap.servers=" + servers + ": " + e, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted reaching the cluster of causal clock '" + name + "'", e);
            }
            Set<String> first = CLUSTERS.putIfAbsent(name + "@" + clusterId, servers);
            if (first != null && !first.equals(servers)) {
                throw new IllegalStateException("Clients of causal clock '" + name + "' list the bootstrap servers of"
                        + " cluster " + clusterId + " differently: " + first + " and " + servers + ". They would keep"
                        + " separate clocks and miss each other's causes: list the same bootstrap.servers");
            }
        }
    }
}
