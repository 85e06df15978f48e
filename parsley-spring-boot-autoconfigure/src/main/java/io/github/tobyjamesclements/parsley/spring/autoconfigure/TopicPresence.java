package io.github.tobyjamesclements.parsley.spring.autoconfigure;

import io.github.tobyjamesclements.parsley.AbsentTopicsException;
import io.github.tobyjamesclements.parsley.Parsley;
import io.github.tobyjamesclements.parsley.Stage;
import io.github.tobyjamesclements.parsley.spring.diagnostics.MissingDeadLetterTopicException;
import io.github.tobyjamesclements.parsley.spring.diagnostics.MissingTopicsException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Turns the core's refusal of topics the cluster does not know ({@link AbsentTopicsException}, from
 * the describe it makes at startup anyway) into the starter's reports, which name each topic's role
 * and {@code parsley.topics.create}: {@link MissingDeadLetterTopicException} when the dead-letter
 * topic is the only one missing, else {@link MissingTopicsException}. Every other failure passes
 * through unchanged.
 */
final class TopicPresence {

    private TopicPresence() {
    }

    static <T> T named(Parsley parsley, Supplier<T> build) {
        try {
            return build.get();
        } catch (AbsentTopicsException e) {
            // in the order the application names them, each with its role
            Map<String, String> missing = new LinkedHashMap<>();
            roles(parsley).forEach((topic, role) -> {
                if (e.topics().contains(topic)) {
                    missing.put(topic, role);
                }
            });
            e.topics().forEach(t -> missing.putIfAbsent(t, "topic"));
            String deadLetters = parsley.deadLetterTopic().orElse(null);
            if (missing.size() == 1 && missing.containsKey(deadLetters)) {
                throw new MissingDeadLetterTopicException(deadLetters);
            }
            throw new MissingTopicsException(parsley.applicationId(), missing);
        }
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
}
