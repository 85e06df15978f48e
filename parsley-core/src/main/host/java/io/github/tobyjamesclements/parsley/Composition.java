package io.github.tobyjamesclements.parsley;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The rules by which stages compose into one {@link Parsley} application, and the topics a
 * composition declares. Each rule fails with the application, the topic and the stage it found
 * wrong, and what to do.
 */
final class Composition {

    private Composition() {
    }

    /** Refuses an empty composition, two stages of one name, and a tick topic declared as a source. */
    static void check(String applicationId, Stage... stages) {
        if (stages.length == 0) {
            throw new IllegalArgumentException("An application needs at least one stage; applicationId="
                    + applicationId);
        }
        Set<String> names = new LinkedHashSet<>();
        Map<String, String> tickOwners = new TreeMap<>();
        for (Stage stage : stages) {
            Objects.requireNonNull(stage, "stage");
            if (!names.add(stage.name())) {
                throw new IllegalArgumentException("Two stages share a name; applicationId=" + applicationId
                        + ", stage=" + stage.name() + "; stage names key stores and sender ids and must be distinct");
            }
            stage.ticks().ifPresent(t -> tickOwners.put(stage.tickTopic(applicationId), stage.name()));
        }
        for (Stage stage : stages) {
            for (String topic : stage.sources().keySet()) {
                String owner = tickOwners.get(topic);
                if (owner != null) {
                    throw new IllegalArgumentException("A tick topic is declared as a source; applicationId="
                            + applicationId + ", topic=" + topic + ", stage=" + stage.name() + ", ticking stage="
                            + owner + "; a tick topic carries its own stage's ticks only, which reach that stage by"
                            + " themselves: remove it from the sources");
                }
            }
        }
    }

    /** Refuses a dead-letter topic that is no legal topic name, or that a stage consumes. */
    static void checkDeadLetterTopic(String applicationId, List<Stage> stages, String topic) {
        if (!Parsley.APPLICATION_ID.matcher(topic).matches() || topic.length() > 249 || topic.equals(".")
                || topic.equals("..")) {
            throw new IllegalArgumentException("Dead-letter topic is not a legal Kafka topic name; applicationId="
                    + applicationId + ", topic='" + topic + "'; use up to 249 of [a-zA-Z0-9._-]");
        }
        for (Stage stage : stages) {
            if (stage.sources().containsKey(topic) || (stage.ticks().isPresent()
                    && stage.tickTopic(applicationId).equals(topic))) {
                throw new IllegalArgumentException("Dead-letter topic is a source of a stage; applicationId="
                        + applicationId + ", topic=" + topic + ", stage=" + stage.name() + "; dead letters would be"
                        + " consumed again: use a topic no stage consumes");
            }
        }
    }

    /**
     * Every topic resolved at startup (exists, not compacted): the dead-letter topic included,
     * when {@code deadLetterTopic} is not null.
     */
    static Set<String> declaredTopics(String applicationId, List<Stage> stages, String deadLetterTopic) {
        Set<String> topics = new LinkedHashSet<>();
        for (Stage s : stages) {
            topics.addAll(s.sources().keySet());
            topics.addAll(s.sinks().keySet());
            s.ticks().ifPresent(t -> topics.add(s.tickTopic(applicationId)));
        }
        if (deadLetterTopic != null) {
            topics.add(deadLetterTopic);
        }
        return topics;
    }
}
