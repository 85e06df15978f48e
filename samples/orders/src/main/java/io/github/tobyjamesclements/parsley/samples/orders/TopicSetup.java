package io.github.tobyjamesclements.parsley.samples.orders;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the sample's missing topics and checks that the notifier's two sources are co-partitioned.
 *
 * <p>The sample does this itself, rather than with {@code parsley.topics.create}, because its
 * topics need two partition counts: the sources, orders and payments, share one (Parsley orders
 * within a task, which reads partition p of every source), and the sinks have another.
 */
public final class TopicSetup {

    /** The bean name {@link OrderTopics} depends on. */
    public static final String BEAN_NAME = "orderTopicSetup";

    private static final Logger log = LoggerFactory.getLogger(TopicSetup.class);

    private final Map<String, Integer> partitions;

    private TopicSetup(Map<String, Integer> partitions) {
        this.partitions = partitions;
    }

    /**
     * Creates missing topics when asked to, then describes them.
     *
     * @param adminConfig the admin client configuration
     * @param settings the topic settings
     * @return the partition count of each existing topic of the sample
     * @throws IllegalStateException if orders and payments have different partition counts
     */
    static TopicSetup ensure(Map<String, Object> adminConfig, OrdersProperties.Topics settings) {
        Map<String, Integer> wanted = new LinkedHashMap<>();
        wanted.put(OrderTopics.ORDERS, settings.getSourcePartitions());
        wanted.put(OrderTopics.PAYMENTS, settings.getSourcePartitions());
        wanted.put(OrderTopics.NOTIFICATIONS, settings.getSinkPartitions());
        wanted.put(OrderTopics.BALANCES, settings.getSinkPartitions());
        wanted.put(OrderTopics.DEAD_LETTERS, settings.getSinkPartitions());
        try (Admin admin = Admin.create(adminConfig)) {
            Map<String, Integer> existing = describe(admin, wanted.keySet());
            if (settings.isCreate()) {
                Optional<Short> replication = settings.getReplicationFactor() < 0 ? Optional.empty()
                        : Optional.of(settings.getReplicationFactor());
                List<NewTopic> missing = new ArrayList<>();
                wanted.forEach((topic, count) -> {
                    if (!existing.containsKey(topic)) {
                        missing.add(new NewTopic(topic, Optional.of(count), replication));
                    }
                });
                existing.putAll(create(admin, missing));
            }
            Integer orders = existing.get(OrderTopics.ORDERS);
            Integer payments = existing.get(OrderTopics.PAYMENTS);
            if (orders != null && payments != null && !orders.equals(payments)) {
                throw new IllegalStateException("Topics orders and payments must have the same partition count: the"
                        + " notifier orders a payment after its order within one task, which reads partition p of both;"
                        + " orders=" + orders + ", payments=" + payments + "; recreate them co-partitioned");
            }
            return new TopicSetup(existing);
        }
    }

    /**
     * The partition counts of the sample's topics that existed after setup.
     *
     * @return topic name to partition count
     */
    public Map<String, Integer> partitions() {
        return Map.copyOf(partitions);
    }

    /**
     * Creates the topics and describes them. The controller commits a topic before every broker's
     * metadata shows it, and a describe in between says it does not exist; Parsley resolves the
     * topics with such a describe as it starts, so setup returns only once the brokers see them.
     */
    private static Map<String, Integer> create(Admin admin, List<NewTopic> topics) {
        admin.createTopics(topics).values().forEach((name, future) -> {
            try {
                future.get(30, TimeUnit.SECONDS);
                log.info("Created topic {}", name);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException("Cannot create topic; topic=" + name + ": " + e.getCause(), e);
                }
            } catch (InterruptedException | TimeoutException e) {
                throw interrupted("Cannot create topic; topic=" + name, e);
            }
        });
        List<String> names = topics.stream().map(NewTopic::name).toList();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Map<String, Integer> counts = describe(admin, names);
        while (counts.size() < names.size()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("Topics were created but the brokers still do not describe them"
                        + " after 30 s; topics=" + names.stream().filter(t -> !counts.containsKey(t)).toList());
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                throw interrupted("Interrupted waiting for created topics " + names, e);
            }
            counts.putAll(describe(admin, names));
        }
        return counts;
    }

    private static IllegalStateException interrupted(String message, Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new IllegalStateException(message + ": " + e, e);
    }

    private static Map<String, Integer> describe(Admin admin, Iterable<String> topics) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        topics.forEach(names::add);
        admin.describeTopics(names).topicNameValues().forEach((name, future) -> {
            try {
                TopicDescription d = future.get(30, TimeUnit.SECONDS);
                counts.put(name, d.partitions().size());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new IllegalStateException("Cannot describe topic; topic=" + name + ": " + e.getCause(), e);
                }
            } catch (InterruptedException | TimeoutException e) {
                throw interrupted("Cannot describe topic; topic=" + name, e);
            }
        });
        return counts;
    }
}
