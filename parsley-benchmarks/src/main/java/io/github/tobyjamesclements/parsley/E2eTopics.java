package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.EndToEndBenchmark.log;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/** The benchmark's broker housekeeping: each run's topics, created ready and deleted after it. */
final class E2eTopics {

    private final Admin admin;
    private final int partitions;

    E2eTopics(Admin admin, int partitions) {
        this.admin = admin;
        this.partitions = partitions;
    }

    /** The partition count of every topic this creates. */
    int partitions() {
        return partitions;
    }

    /** Creates the topics and waits until every partition has a leader. */
    void create(String... names) throws Exception {
        List<NewTopic> topics = Arrays.stream(names).map(n -> new NewTopic(n, partitions, (short) 1)).toList();
        admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                if (admin.describeTopics(List.of(names)).allTopicNames().get(10, TimeUnit.SECONDS).values().stream()
                        .allMatch(d -> d.partitions().size() == partitions
                                && d.partitions().stream().allMatch(p -> p.leader() != null))) {
                    return;
                }
            } catch (ExecutionException | TimeoutException notYet) {
                // metadata not propagated yet
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Topics not ready: " + List.of(names));
            }
            Thread.sleep(20);
        }
    }

    /** The sum of the end offsets of the application's changelog topics; -1 if they cannot be read. */
    long changelogRecords(String id) {
        try {
            List<String> changelogs = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith(id + "-") && t.endsWith("-changelog")).toList();
            if (changelogs.isEmpty()) {
                return 0;
            }
            Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
            admin.describeTopics(changelogs).allTopicNames().get(30, TimeUnit.SECONDS).forEach((name, d) ->
                    d.partitions().forEach(p -> specs.put(new TopicPartition(name, p.partition()),
                            OffsetSpec.latest())));
            return admin.listOffsets(specs).all().get(30, TimeUnit.SECONDS).values().stream()
                    .mapToLong(ListOffsetsResult.ListOffsetsResultInfo::offset).sum();
        } catch (Exception e) {
            log("could not count changelog records of %s: %s", id, e);
            return -1;
        }
    }

    /** The bytes on disk of the application's changelog partitions (one broker); -1 if they cannot be read. */
    long changelogBytes(String id) {
        return bytes(t -> t.startsWith(id + "-") && t.endsWith("-changelog"), "the changelogs of " + id);
    }

    /** The bytes on disk of {@code topic}'s partitions (one broker); -1 if they cannot be read. */
    long topicBytes(String topic) {
        return bytes(topic::equals, topic);
    }

    private long bytes(Predicate<String> topics, String what) {
        try {
            int broker = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).iterator().next().id();
            return admin.describeLogDirs(List.of(broker)).allDescriptions().get(30, TimeUnit.SECONDS).get(broker)
                    .values().stream().flatMap(d -> d.replicaInfos().entrySet().stream())
                    .filter(e -> topics.test(e.getKey().topic())).mapToLong(e -> e.getValue().size()).sum();
        } catch (Exception e) {
            log("could not size %s: %s", what, e);
            return -1;
        }
    }

    /**
     * The offsets a read_committed consumer of {@code topic} reads up to, by partition: its last stable
     * offsets, its end offsets once no transaction on it is open.
     */
    Map<TopicPartition, Long> committedEnds(String topic) throws Exception {
        Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            specs.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(specs, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all()
                .get(30, TimeUnit.SECONDS).forEach((tp, info) -> ends.put(tp, info.offset()));
        return ends;
    }

    /**
     * Whether the consumer group {@code group} has committed every record of {@code topic}, written
     * by transactional producers: a partition's last offset is then a commit marker, which a
     * consumer that processed the record before it need not have committed past.
     */
    boolean consumedAll(String group, String topic) {
        try {
            Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                specs.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(specs).all()
                    .get(30, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            return ends.entrySet().stream().allMatch(e -> committed.get(e.getKey()) != null
                    && committed.get(e.getKey()).offset() >= e.getValue().offset() - 1);
        } catch (Exception e) {
            log("could not read the committed offsets of %s on %s: %s", group, topic, e);
            return false;
        }
    }

    /** Deletes every topic of the application {@code id}: its inputs, outputs and internal topics. */
    void deleteAllOf(String id) {
        try {
            Set<String> all = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<String> mine = all.stream().filter(t -> t.startsWith(id + "-")).toList();
            if (!mine.isEmpty()) {
                admin.deleteTopics(mine).all().get(60, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            log("could not delete topics of %s: %s", id, e);
        }
    }
}
