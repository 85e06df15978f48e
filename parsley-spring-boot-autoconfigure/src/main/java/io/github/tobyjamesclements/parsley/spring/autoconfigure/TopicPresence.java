package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import io.github.tobyjamesclements.parsley.spring.diagnostics.MissingDeadLetterTopicException;
import io.github.tobyjamesclements.parsley.spring.diagnostics.MissingTopicsException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The starter's check, before the application is built, that every topic it names exists: each
 * source, sink and tick topic, and the dead-letter topic. The core refuses missing topics too, but
 * in words that cannot name the property that set a topic or the one that would create it; this
 * check fails with {@link MissingDeadLetterTopicException} when the dead-letter topic is the only
 * one missing, else with {@link MissingTopicsException} naming each missing topic and its role.
 *
 * <p>Only a topic the cluster says does not exist counts as missing. A describe that is refused or
 * that times out proves nothing here and is left to the core's checks, which report it.
 */
final class TopicPresence {

    private static final long TIMEOUT_SECONDS = 30;

    private TopicPresence() {
    }

    static void check(Parsley parsley, Properties streamsProperties) {
        Map<String, String> roles = roles(parsley);
        Map<String, String> missing = new LinkedHashMap<>();
        Map<String, Object> adminConfig = TopicProvisioner.adminConfig(parsley.applicationId(), streamsProperties,
                "topic-check");
        try (Admin admin = Admin.create(adminConfig)) {
            Map<String, KafkaFuture<TopicDescription>> described = admin.describeTopics(roles.keySet())
                    .topicNameValues();
            roles.forEach((topic, role) -> {
                if (absent(described.get(topic)::get)) {
                    missing.put(topic, role);
                }
            });
        }
        if (missing.isEmpty()) {
            return;
        }
        String deadLetters = parsley.deadLetterTopic().orElse(null);
        if (missing.size() == 1 && missing.containsKey(deadLetters)) {
            throw new MissingDeadLetterTopicException(deadLetters);
        }
        throw new MissingTopicsException(parsley.applicationId(), missing);
    }

    /** Each topic the application names, with its role; a topic with two roles keeps the first. */
    private static Map<String, String> roles(Parsley parsley) {
        Map<String, String> roles = new LinkedHashMap<>();
        for (Stage stage : parsley.stages()) {
            stage.sourceTopics().forEach(t -> roles.putIfAbsent(t, "source of stage '" + stage.name() + "'"));
            stage.sinkTopics().forEach(t -> roles.putIfAbsent(t, "sink of stage '" + stage.name() + "'"));
            if (stage.tickInterval().isPresent()) {
                roles.putIfAbsent(stage.tickTopic(parsley.applicationId()), "tick topic of stage '" + stage.name()
                        + "'");
            }
        }
        parsley.deadLetterTopic().ifPresent(t -> roles.putIfAbsent(t, "dead-letter topic"));
        return roles;
    }

    private static boolean absent(Describe describe) {
        try {
            describe.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return false;
        } catch (ExecutionException e) {
            return e.getCause() instanceof UnknownTopicOrPartitionException;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @FunctionalInterface
    private interface Describe {
        Object get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException;
    }
}
