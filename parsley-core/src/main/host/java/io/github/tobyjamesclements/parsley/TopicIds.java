package io.github.tobyjamesclements.parsley;

import static io.github.tobyjamesclements.parsley.AdminCalls.TIMEOUT_SECONDS;
import static io.github.tobyjamesclements.parsley.AdminCalls.interrupted;
import static io.github.tobyjamesclements.parsley.AdminTopicCatalog.toKafka;
import static io.github.tobyjamesclements.parsley.AdminTopicCatalog.toUuid;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicIdException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Resolves topic ids to names for the sweep, remembering every name it has seen, and proves a
 * topic gone only by that name (see {@link AdminTopicCatalog} for why an unknown id alone proves
 * nothing). Safe for the sweeps of several stream threads at once.
 */
final class TopicIds {

    /** What describing a topic id tells: a name, proven absence, or nothing certain. */
    sealed interface Resolution {
        record Visible(String name) implements Resolution {
        }

        record Gone() implements Resolution {
        }

        record Unresolved(String why) implements Resolution {
        }
    }

    private final Admin admin;
    /** Every id resolved to a name so far; sweeps of several stream threads add to it. */
    private final Map<UUID, String> names = new ConcurrentHashMap<>();

    TopicIds(Admin admin) {
        this.admin = admin;
    }

    /** Remembers a name learnt elsewhere (a declared topic), so its absence can later be proven. */
    void remember(UUID id, String name) {
        names.put(id, name);
    }

    /** The topic's name if this process has seen it, else the id as text. */
    String nameOf(UUID id) {
        return names.getOrDefault(id, id.toString());
    }

    Resolution resolve(UUID id) {
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

    /** The command that would let this principal describe the topic, named if its name is known. */
    String aclHint(UUID id) {
        String name = names.get(id);
        String topic = name != null ? name : "<the topic whose TopicId is " + toKafka(id)
                + ", as kafka-topics.sh --describe shows it to an administrator>";
        return "kafka-acls.sh --add --allow-principal User:<principal> --operation Describe --topic " + topic;
    }
}
