package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.AdminCalls.TIMEOUT_SECONDS;
import static io.github.tobyjamesclements.parsley.AdminCalls.await;

import io.github.tobyjamesclements.parsley.TopicIds.Resolution;
import java.util.ArrayList;
import java.util.Collection;
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
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
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

    private final Admin admin;
    private final Map<String, UUID> ids = new TreeMap<>();
    private final Map<String, Integer> partitions = new TreeMap<>();
    private final TopicIds topicIds;
    private final Set<UUID> warnedUnresolved = ConcurrentHashMap.newKeySet();

    /**
     * Resolves the declared topics.
     *
     * @throws IllegalStateException if a topic does not exist or is compacted (F15, §16.5)
     */
    AdminTopicCatalog(Admin admin, Collection<String> declared) {
        this.admin = admin;
        this.topicIds = new TopicIds(admin);
        DeclaredTopics.resolve(admin, declared).forEach((name, d) -> {
            UUID id = toUuid(d.topicId());
            ids.put(name, id);
            topicIds.remember(id, name);
            partitions.put(name, d.partitions().size());
        });
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
        return topicIds.nameOf(topicId);
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
        Resolution r = topicIds.resolve(topicId);
        if (r instanceof Resolution.Gone) {
            return Optional.empty();
        }
        if (r instanceof Resolution.Unresolved u) {
            throw new IllegalStateException("Cannot resolve the end offsets of topic id " + topicId + ", a sink (declared"
                    + " or former) of this stage whose records its stamps must claim: " + u.why() + "; grant this"
                    + " application's principal DESCRIBE on that topic (" + topicIds.aclHint(topicId) + "); claims are"
                    + " never given up unless the topic is proven gone");
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
            Resolution r = topicIds.resolve(id);
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
                    id, why, topicIds.aclHint(id));
        }
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

    private TopicDescription describeByName(String name) {
        return await(admin.describeTopics(List.of(name)).allTopicNames(), "describe topic " + name, List.of(name))
                .get(name);
    }

    static UUID toUuid(Uuid id) {
        return new UUID(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    static Uuid toKafka(UUID id) {
        return new Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }
}
