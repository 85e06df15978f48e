package io.github.tobyjamesclements.parsley;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicIdException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production catalog over an {@link Admin} built from the application's full client
 * configuration (protocol.md §16.9). Resolves every declared topic once, refuses compacted causal
 * topics (§16.5), answers end offsets by topic id with the high watermark (§16.1, §16.2) and log
 * starts (§8.2).
 *
 * <p>Absence is reported only when proven. Kafka answers a describe-by-id of a topic the
 * principal may not describe exactly as it answers one of a deleted topic
 * ({@link UnknownTopicIdException}), so an unknown id proves nothing by itself. A topic is proven
 * gone only when its name is known (declared, or resolved by id earlier in this process) and a
 * describe by that name, which Kafka answers with an authorization error when the principal may
 * not see it, says the topic does not exist or now has another id. Every other unknown id is
 * unresolved: its claims are kept, and a WARN names the permission that would resolve it, once
 * per topic (docs/protocol-decisions.md, "Unresolvable topics keep their claims").
 */
final class AdminTopicCatalog implements TopicCatalog {

    private static final Logger log = LoggerFactory.getLogger(AdminTopicCatalog.class);
    private static final long TIMEOUT_SECONDS = 30;

    private final Admin admin;
    private final Map<String, UUID> ids = new TreeMap<>();
    private final Map<String, Integer> partitions = new TreeMap<>();
    /** Every id resolved to a name so far; sweeps of several stream threads add to it. */
    private final Map<UUID, String> names = new ConcurrentHashMap<>();
    private final Set<UUID> warnedUnresolved = ConcurrentHashMap.newKeySet();

    /**
     * Resolves the declared topics.
     *
     * @throws IllegalStateException if a topic does not exist or is compacted (F15, §16.5)
     */
    AdminTopicCatalog(Admin admin, Collection<String> declared) {
        this.admin = admin;
        Set<String> topics = new TreeSet<>(declared);
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
        if (!denied.isEmpty()) {
            throw TopicAccessException.denied(AclOperation.DESCRIBE, denied, "Parsley resolves every source, sink"
                    + " and tick topic, and the dead-letter topic, at startup (Kafka gives this answer too for a topic"
                    + " that does not exist); a source needs Read, and a sink or the dead-letter topic Write, each of"
                    + " which includes Describe", refusals.get(0));
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("Cannot resolve topic; missing topics=" + missing
                    + "; create every source, sink and tick topic, and the dead-letter topic if one is set, before"
                    + " starting the application");
        }
        found.forEach((name, d) -> {
            UUID id = toUuid(d.topicId());
            ids.put(name, id);
            names.put(id, name);
            partitions.put(name, d.partitions().size());
        });
        refuseCompacted(topics);
    }

    private void refuseCompacted(Set<String> topics) {
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
        List<String> compacted = new ArrayList<>();
        configs.forEach((r, c) -> {
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

    @Override
    public UUID topicId(String topic) {
        UUID id = ids.get(topic);
        if (id == null) {
            throw new IllegalStateException("Cannot resolve topic; topic=" + topic + " was not declared");
        }
        return id;
    }

    @Override
    public int partitions(String topic) {
        topicId(topic);
        return partitions.get(topic);
    }

    @Override
    public String nameOf(UUID topicId) {
        return names.getOrDefault(topicId, topicId.toString());
    }

    @Override
    public void verifyUnchanged(Iterable<String> topics) {
        Map<String, TopicDescription> now = new HashMap<>();
        List<String> list = new ArrayList<>();
        topics.forEach(list::add);
        List<String> gone = new ArrayList<>();
        admin.describeTopics(list).topicNameValues().forEach((name, future) -> {
            try {
                now.put(name, future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    gone.add(name);
                } else {
                    log.warn("Topic identity check skipped; topic={}: {}", name, e.getCause().toString());
                }
            } catch (InterruptedException | TimeoutException e) {
                log.warn("Topic identity check skipped; topic={}: {}", name, e.toString());
            }
        });
        for (String name : list) {
            TopicDescription d = now.get(name);
            if (d != null && !toUuid(d.topicId()).equals(ids.get(name))) {
                throw new IllegalStateException("Topic was recreated under the same name; topic=" + name
                        + ", resolved id=" + ids.get(name) + ", current id=" + toUuid(d.topicId())
                        + "; its history is lost to this application: reset the application's state and offsets");
            }
        }
        if (!gone.isEmpty()) {
            throw new IllegalStateException("Declared topics were deleted; topics=" + gone
                    + "; recreate them and reset the application's state and offsets");
        }
    }

    @Override
    public Optional<Map<Integer, Long>> endOffsets(UUID topicId) {
        Resolution r = resolve(topicId);
        if (r instanceof Resolution.Gone) {
            return Optional.empty();
        }
        if (r instanceof Resolution.Unresolved u) {
            throw new IllegalStateException("Cannot resolve the end offsets of topic id " + topicId + ", a sink (declared"
                    + " or former) of this stage whose records its stamps must claim: " + u.why() + "; grant this"
                    + " application's principal DESCRIBE on that topic (" + aclHint(topicId) + "); claims are never"
                    + " given up unless the topic is proven gone");
        }
        Optional<String> name = Optional.of(((Resolution.Visible) r).name());
        int count = describeByName(name.get()).partitions().size();
        Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
        for (int p = 0; p < count; p++) {
            specs.put(new TopicPartition(name.get(), p), OffsetSpec.latest());
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> latest = await(admin.listOffsets(specs,
                new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all(), "list end offsets of " + name.get(),
                List.of(name.get()));
        if (!toUuid(describeByName(name.get()).topicId()).equals(topicId)) {
            return Optional.empty();
        }
        Map<Integer, Long> out = new TreeMap<>();
        latest.forEach((tp, info) -> out.put(tp.partition(), info.offset()));
        return Optional.of(out);
    }

    @Override
    public LogStarts logStarts(Set<Channel> channels) {
        Map<UUID, List<Channel>> byTopic = channels.stream()
                .collect(Collectors.groupingBy(Channel::topicId, TreeMap::new, Collectors.toList()));
        Map<Channel, Long> starts = new TreeMap<>();
        Set<Channel> absent = new TreeSet<>();
        Set<Channel> unresolved = new TreeSet<>();
        byTopic.forEach((id, list) -> {
            Resolution r = resolve(id);
            if (r instanceof Resolution.Gone) {
                absent.addAll(list);
            } else if (r instanceof Resolution.Unresolved u) {
                unresolved.addAll(list);
                warnOnce(id, u.why());
            } else {
                String name = ((Resolution.Visible) r).name();
                Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
                list.forEach(c -> specs.put(new TopicPartition(name, c.partition()), OffsetSpec.earliest()));
                await(admin.listOffsets(specs).all(), "list log starts of " + name, List.of(name))
                        .forEach((tp, info) -> starts.put(new Channel(id, tp.partition()), info.offset()));
            }
        });
        return new LogStarts(starts, absent, unresolved);
    }

    private void warnOnce(UUID id, String why) {
        if (warnedUnresolved.add(id)) {
            log.warn("Cannot resolve topic id {}: {}. Claims on it are kept in the clocks this application carries"
                    + " on (they cost header bytes, never order). If the topic exists, grant this application's"
                    + " principal DESCRIBE on it ({}); meter parsley.topics.unresolvable counts such topics per stage",
                    id, why, aclHint(id));
        }
    }

    private String aclHint(UUID id) {
        String name = names.get(id);
        String topic = name != null ? name : "<the topic whose TopicId is " + toKafka(id)
                + ", as kafka-topics.sh --describe shows it to an administrator>";
        return "kafka-acls.sh --add --allow-principal User:<principal> --operation Describe --topic " + topic;
    }

    @Override
    public long logStart(String topic, int partition) {
        TopicPartition tp = new TopicPartition(topic, partition);
        return await(admin.listOffsets(Map.of(tp, OffsetSpec.earliest())).all(), "list the log start of " + tp,
                List.of(topic)).get(tp).offset();
    }

    @Override
    public boolean brokerBacked() {
        return true;
    }

    /** What describing a topic id tells: a name, proven absence, or nothing certain. */
    private sealed interface Resolution {
        record Visible(String name) implements Resolution {
        }

        record Gone() implements Resolution {
        }

        record Unresolved(String why) implements Resolution {
        }
    }

    private Resolution resolve(UUID id) {
        try {
            TopicDescription d = admin.describeTopics(TopicCollection.ofTopicIds(List.of(toKafka(id))))
                    .allTopicIds().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).get(toKafka(id));
            names.put(id, d.name());
            return new Resolution.Visible(d.name());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicIdException || e.getCause() instanceof TopicAuthorizationException) {
                return provenGoneByName(id);
            }
            throw new IllegalStateException("Cannot describe topic id; id=" + id + ": " + e.getCause(), e);
        } catch (InterruptedException | TimeoutException e) {
            throw interrupted("Cannot describe topic id; id=" + id, e);
        }
    }

    /**
     * An id Kafka does not describe: deleted, or hidden from this principal. Proven gone only by
     * its known name: absent under that name (an answer Kafka gives only to a principal allowed to
     * describe it), or present under another id.
     */
    private Resolution provenGoneByName(UUID id) {
        String name = names.get(id);
        if (name == null) {
            return new Resolution.Unresolved("Kafka does not describe it to this principal (it was deleted, or the"
                    + " principal may not DESCRIBE it; Kafka answers both alike) and its name was never seen");
        }
        try {
            TopicDescription d = admin.describeTopics(List.of(name)).topicNameValues().get(name)
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return toUuid(d.topicId()).equals(id)
                    ? new Resolution.Unresolved("topic " + name + " exists, but its id is not yet described")
                    : new Resolution.Gone();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return new Resolution.Gone();
            }
            if (e.getCause() instanceof TopicAuthorizationException) {
                return new Resolution.Unresolved("this principal may not DESCRIBE topic " + name);
            }
            throw new IllegalStateException("Cannot describe topic; topic=" + name + ": " + e.getCause(), e);
        } catch (InterruptedException | TimeoutException e) {
            throw interrupted("Cannot describe topic; topic=" + name, e);
        }
    }

    private TopicDescription describeByName(String name) {
        return await(admin.describeTopics(List.of(name)).allTopicNames(), "describe topic " + name, List.of(name))
                .get(name);
    }

    /**
     * Awaits an answer about {@code topics}; a refusal to describe them is a
     * {@link TopicAccessException} naming them, anything else an {@link IllegalStateException}.
     */
    private static <T> T await(KafkaFuture<T> future, String what, Collection<String> topics) {
        try {
            return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicAuthorizationException t) {
                Set<String> denied = t.unauthorizedTopics().isEmpty() ? new TreeSet<>(topics) : t.unauthorizedTopics();
                throw TopicAccessException.denied(AclOperation.DESCRIBE, denied, "Parsley could not " + what, t);
            }
            throw new IllegalStateException("Cannot " + what + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw interrupted("Cannot " + what, e);
        }
    }

    private static IllegalStateException interrupted(String message, Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new IllegalStateException(message + ": " + e, e);
    }

    static UUID toUuid(Uuid id) {
        return new UUID(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    static Uuid toKafka(UUID id) {
        return new Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }
}
