package io.github.tobyjamesclements.parsley;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.header.Headers;

/**
 * A causal clock for plain producers and consumers outside stages (protocol.md §6.6): what this
 * client observed and produced becomes the dependency clock of what it sends next, so a stage
 * downstream delivers its records after their causes.
 *
 * <p>Observe each consumed record that causes later sends, record each acknowledged send, and
 * stamp each outbound record's headers. A producer that awaits each acknowledgement (or flushes)
 * between causally ordered sends gets its own earlier sends claimed; pipelined sends are stamped
 * validly but not ordered among themselves. Stamps carry no sender tag. Not thread-safe: use one
 * per producing thread.
 */
public final class CausalClock {

    private final Function<String, UUID> topicIds;
    private final Map<String, UUID> cache = new HashMap<>();
    private final VectorClock clock = new VectorClock();

    /**
     * Creates a clock that resolves topic names to ids through {@code admin}, once per name.
     *
     * @param admin an admin client of the cluster, never null; not closed by this clock
     */
    public CausalClock(Admin admin) {
        Objects.requireNonNull(admin, "admin");
        this.topicIds = name -> describe(admin, name);
    }

    CausalClock(Function<String, UUID> topicIds) {
        this.topicIds = topicIds;
    }

    /**
     * A clock whose topic ids are those of {@link Parsley#testTopology()}: a way to build the
     * causal headers of records piped into a {@code TopologyTestDriver}. Never use it against a
     * broker: its stamps name channels no broker has.
     *
     * @return a new clock, never null
     */
    public static CausalClock forTestTopology() {
        return new CausalClock(LocalTopicCatalog::idOf);
    }

    /**
     * Makes a consumed record, and everything it depends on, a cause of later sends.
     *
     * @param record the consumed record, never null
     * @throws CorruptClockException if its causal headers are corrupt
     * @throws TopicAccessException if the principal may not describe its topic
     * @throws IllegalStateException if its topic cannot be resolved otherwise
     */
    public void observe(ConsumerRecord<?, ?> record) {
        CausalHeaders.Read read = CausalHeaders.read(record.headers(), "topic=" + record.topic() + ", partition="
                + record.partition() + ", offset=" + record.offset());
        if (read.clock() != null) {
            clock.mergeMax(read.clock());
        }
        clock.advanceTo(new Channel(topicId(record.topic()), record.partition()), record.offset());
    }

    /**
     * Makes an acknowledged send a cause of later sends.
     *
     * @param metadata the send's metadata, never null; ignored when it has no offset
     * @throws TopicAccessException if the principal may not describe its topic
     * @throws IllegalStateException if its topic cannot be resolved otherwise
     */
    public void recordProduced(RecordMetadata metadata) {
        if (metadata.hasOffset()) {
            clock.advanceTo(new Channel(topicId(metadata.topic()), metadata.partition()), metadata.offset());
        }
    }

    /**
     * Writes the current clock as the {@value CausalHeaders#CLOCK} header, replacing any.
     *
     * @param outbound the outbound record's headers, never null
     */
    public void stamp(Headers outbound) {
        CausalHeaders.writeClock(outbound, clock);
    }

    private UUID topicId(String topic) {
        return cache.computeIfAbsent(topic, topicIds);
    }

    private static UUID describe(Admin admin, String topic) {
        try {
            return AdminTopicCatalog.toUuid(admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(30, TimeUnit.SECONDS).get(topic).topicId());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicAuthorizationException t) {
                throw TopicAccessException.denied(AclOperation.DESCRIBE, List.of(topic), "a causal clock resolves"
                        + " the id of every topic it observes or records a send to; a producer needs Write on the"
                        + " topics it writes and a consumer Read on those it reads, each of which includes Describe",
                        t);
            }
            throw new IllegalStateException("Cannot resolve topic; topic=" + topic + ": " + e.getCause(), e);
        } catch (InterruptedException | TimeoutException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("Cannot resolve topic; topic=" + topic + ": " + e, e);
        }
    }
}
