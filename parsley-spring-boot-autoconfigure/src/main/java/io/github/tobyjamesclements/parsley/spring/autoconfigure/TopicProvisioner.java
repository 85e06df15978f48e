package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Development convenience ({@code parsley.topics.create=true}): creates missing source and sink
 * topics and the dead-letter topic, then each stage's tick topic, named and sized by the core
 * ({@link Stage#tickTopic}, {@link Stage#tickPartitions}: as wide as the stage's widest source,
 * protocol.md §12.5). Never alters an existing topic, and never asks to
 * create one that exists, so topics created beforehand need only Describe. A denied describe or
 * create fails startup naming the topic and the ACL the application's principal lacks.
 */
final class TopicProvisioner {

    private static final Logger log = LoggerFactory.getLogger(TopicProvisioner.class);

    private final Parsley parsley;
    private final Properties streamsProperties;
    private final ParsleyProperties.Topics settings;

    TopicProvisioner(Parsley parsley, Properties streamsProperties, ParsleyProperties.Topics settings) {
        this.parsley = parsley;
        this.streamsProperties = streamsProperties;
        this.settings = settings;
    }

    /**
     * Checks that the cluster answers these settings (the same check {@code Parsley.streams} runs),
     * then creates what is missing, returning once the brokers describe it.
     */
    void provision() {
        parsley.checkCluster(streamsProperties);
        try (Admin admin = Admin.create(adminConfig(parsley.applicationId(), streamsProperties, "provisioner"))) {
            Set<String> plain = new LinkedHashSet<>();
            parsley.stages().forEach(s -> {
                plain.addAll(s.sourceTopics());
                plain.addAll(s.sinkTopics());
            });
            parsley.deadLetterTopic().ifPresent(plain::add);
            create(admin, plain, t -> settings.getPartitions(), settings.getReplicationFactor());
            for (Stage stage : parsley.stages()) {
                if (stage.tickInterval().isPresent()) {
                    int width = stage.tickPartitions(t -> existingPartitions(admin, t));
                    create(admin, Set.of(stage.tickTopic(parsley.applicationId())), t -> width,
                            settings.getReplicationFactor());
                }
            }
        }
    }

    private static void create(Admin admin, Set<String> topics, java.util.function.ToIntFunction<String> partitions,
            short replication) {
        List<NewTopic> missing = new ArrayList<>();
        for (String t : topics) {
            if (partitions(admin, t) < 0) {
                missing.add(new NewTopic(t, partitions.applyAsInt(t), replication));
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        admin.createTopics(missing).values().forEach((name, future) -> {
            try {
                future.get(30, TimeUnit.SECONDS);
                log.info("Created topic {} for development (parsley.topics.create=true)", name);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof AuthorizationException) {
                    throw new IllegalStateException("Cannot create topic; topic=" + name + ": " + e.getCause()
                            + "; the application's principal needs Create on the topic (or on the cluster): grant"
                            + " it, or create the topic beforehand", e);
                }
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException("Cannot create topic; topic=" + name + ": " + e.getCause(), e);
                }
            } catch (InterruptedException | TimeoutException e) {
                throw new IllegalStateException("Cannot create topic; topic=" + name + ": " + e, e);
            }
        });
        awaitVisible(admin, missing.stream().map(NewTopic::name).toList());
    }

    /**
     * A created topic is committed by the controller before every broker's metadata shows it, and
     * a describe in between says it does not exist. The stages are assembled from such describes
     * (a tick topic's width, the catalog's ids), so provisioning returns only once they see it.
     */
    private static void awaitVisible(Admin admin, List<String> created) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (String topic : created) {
            while (partitions(admin, topic) < 0) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Cannot describe topic; topic=" + topic + " was created but the"
                            + " brokers still do not describe it after 30 s; check the brokers' metadata propagation");
                }
                pause();
            }
        }
    }

    private static void pause() {
        try {
            TimeUnit.MILLISECONDS.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for created topics to be described", e);
        }
    }

    private static int existingPartitions(Admin admin, String topic) {
        int count = partitions(admin, topic);
        if (count < 0) {
            throw new IllegalStateException("Cannot size the tick topic; its stage's source topic=" + topic
                    + " does not exist");
        }
        return count;
    }

    /** The partition count of a topic, or −1 when it does not exist. */
    private static int partitions(Admin admin, String topic) {
        try {
            Map<String, TopicDescription> d = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(30, TimeUnit.SECONDS);
            return d.get(topic).partitions().size();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return -1;
            }
            if (e.getCause() instanceof AuthorizationException) {
                // The broker answers so for a missing topic too: existence is not disclosed without Describe.
                throw new IllegalStateException("Cannot describe topic; topic=" + topic + ": " + e.getCause()
                        + "; the application's principal needs Describe on the topic", e);
            }
            throw new IllegalStateException("Cannot describe topic; topic=" + topic + ": " + e.getCause(), e);
        } catch (InterruptedException | TimeoutException e) {
            throw new IllegalStateException("Cannot describe topic; topic=" + topic + ": " + e, e);
        }
    }

    /**
     * The settings of an admin client Parsley opens (the provisioner's, the broker check's): the
     * Streams admin's, security included, under a client id that names its purpose.
     */
    static Map<String, Object> adminConfig(String applicationId, Properties streamsProperties, String purpose) {
        Properties copy = new Properties();
        copy.putAll(streamsProperties);
        copy.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        return new StreamsConfig(copy).getAdminConfigs(applicationId + "-parsley-" + purpose);
    }
}
