package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.AdminCalls.TIMEOUT_SECONDS;
import static io.github.tobyjamesclements.parsley.AdminCalls.interrupted;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The startup checks of the declared topics (F15, protocol.md §16.5): every one must exist, be
 * visible to this principal, and not be compacted. Refuses, naming every offending topic at once
 * and the permission or setting that would fix it, rather than stopping at the first.
 */
final class DeclaredTopics {

    private DeclaredTopics() {
    }

    /**
     * Describes the declared topics and checks their cleanup policy.
     *
     * @return each topic's description, by name
     * @throws TopicAccessException if this principal may not describe a topic or its configs
     * @throws IllegalStateException if a topic does not exist or is compacted
     */
    static Map<String, TopicDescription> resolve(Admin admin, Collection<String> declared) {
        Set<String> topics = new TreeSet<>(declared);
        Map<String, TopicDescription> found = describe(admin, topics);
        refuseCompacted(admin, topics);
        return found;
    }

    private static Map<String, TopicDescription> describe(Admin admin, Set<String> topics) {
        Map<String, TopicDescription> found = new TreeMap<>();
        List<String> missing = new ArrayList<>();
        List<String> denied = new ArrayList<>();
        List<Throwable> refusals = new ArrayList<>();
        admin.describeTopics(topics).topicNameValues().forEach((name, future) -> {
            try {
                found.put(name, future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            } catch (ExecutionException e) {
                if (e.getCause() instanceof TopicAuthorizationException) {
                    denied.add(name);
                    refusals.add(e.getCause());
                } else if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    missing.add(name);
                } else {
                    throw new IllegalStateException("Cannot resolve topic; topic=" + name + ": " + e.getCause(), e);
                }
            } catch (InterruptedException | TimeoutException e) {
                throw interrupted("Cannot resolve topic; topic=" + name, e);
            }
        });
        refuseAbsent(denied, refusals, missing);
        return found;
    }

    private static void refuseAbsent(List<String> denied, List<Throwable> refusals, List<String> missing) {
        if (!denied.isEmpty()) {
            throw TopicAccessException.denied(AclOperation.DESCRIBE, denied, "Parsley resolves every source, sink"
                    + " and tick topic, and the dead-letter topic, at startup (Kafka gives this answer too for a topic"
                    + " that does not exist); a source needs Read, and a sink or the dead-letter topic Write, each of"
                    + " which includes Describe", refusals.get(0));
        }
        if (!missing.isEmpty()) {
            throw new AbsentTopicsException(missing);
        }
    }

    private static void refuseCompacted(Admin admin, Set<String> topics) {
        List<String> compacted = new ArrayList<>();
        describeConfigs(admin, topics).forEach((r, c) -> {
            ConfigEntry policy = c.get(TopicConfig.CLEANUP_POLICY_CONFIG);
            if (policy != null && policy.value() != null && policy.value().contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
                compacted.add(r.name());
            }
        });
        if (!compacted.isEmpty()) {
            throw new IllegalStateException("Compacted topics cannot be causal channels or dead-letter topics; topics="
                    + compacted + "; compaction leaves holes Parsley would treat as delivered, and would drop dead"
                    + " letters: use cleanup.policy=delete");
        }
    }

    private static Map<ConfigResource, Config> describeConfigs(Admin admin, Set<String> topics) {
        List<ConfigResource> resources = topics.stream()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
        Map<ConfigResource, Config> configs = new TreeMap<>(Comparator.comparing(ConfigResource::name));
        List<String> denied = new ArrayList<>();
        TopicAuthorizationException refusal = null;
        for (Map.Entry<ConfigResource, KafkaFuture<Config>> e : admin.describeConfigs(resources).values().entrySet()) {
            try {
                configs.put(e.getKey(), e.getValue().get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            } catch (ExecutionException x) {
                if (!(x.getCause() instanceof TopicAuthorizationException t)) {
                    throw new IllegalStateException("Cannot describe topic configs; topic=" + e.getKey().name() + ": "
                            + x.getCause(), x.getCause());
                }
                denied.add(e.getKey().name());
                refusal = t;
            } catch (InterruptedException | TimeoutException x) {
                throw interrupted("Cannot describe topic configs; topic=" + e.getKey().name(), x);
            }
        }
        if (!denied.isEmpty()) {
            throw TopicAccessException.denied(AclOperation.DESCRIBE_CONFIGS, denied, "Parsley reads the cleanup"
                    + " policy of every source and sink, and of the dead-letter topic, to refuse compacted ones",
                    refusal);
        }
        return configs;
    }
}
