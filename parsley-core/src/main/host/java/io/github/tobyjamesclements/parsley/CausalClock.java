package io.github.tobyjamesclements.parsley;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
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
 * validly but not ordered among themselves. Stamps carry no sender tag. Thread-safe: one clock
 * may serve several threads, as the JVM-wide clocks of {@link #shared} serve every client that uses
 * {@link CausalProducerInterceptor} or {@link CausalConsumerInterceptor}; its causal past is then
 * the union of theirs.
 */
public final class CausalClock {

    private final Function<String, UUID> topicIds;
    private final Map<String, UUID> cache = new ConcurrentHashMap<>();
    private final VectorClock clock = new VectorClock();
    private String failure;

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
     * The JVM-wide clock named {@code name} for the cluster of {@code clientConfigs}, shared by the
     * interceptors configured with the same {@value CausalProducerInterceptor#CLOCK_NAME_CONFIG} and
     * the same {@code bootstrap.servers} (in any order). Topic ids are resolved through an admin
     * client built from the connection and security settings of {@code clientConfigs}, created on
     * first use and kept for the life of the JVM, as the clock is. If two clocks of one name reach
     * the same cluster through differently listed bootstrap servers, the second fails: they would
     * miss each other's causes.
     *
     * @param name the clock's name, never blank
     * @param clientConfigs a Kafka client's configuration, including {@code bootstrap.servers}
     * @return the shared clock, never null
     * @throws org.apache.kafka.common.config.ConfigException if the name is blank or
     *     {@code bootstrap.servers} is missing
     */
    public static CausalClock shared(String name, Map<String, ?> clientConfigs) {
        return SharedClocks.clock(name, clientConfigs);
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
        Channel channel = new Channel(topicId(record.topic()), record.partition());
        synchronized (this) {
            if (read.clock() != null) {
                clock.mergeMax(read.clock());
            }
            clock.advanceTo(channel, record.offset());
        }
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
            Channel channel = new Channel(topicId(metadata.topic()), metadata.partition());
            synchronized (this) {
                clock.advanceTo(channel, metadata.offset());
            }
        }
    }

    /**
     * Writes the current clock as the {@value CausalHeaders#CLOCK} header, replacing any.
     *
     * @param outbound the outbound record's headers, never null
     * @throws IllegalStateException if an interceptor failed to record a cause on this clock:
     *     its stamps would miss that cause, so it stamps nothing more
     */
    public synchronized void stamp(Headers outbound) {
        refuseIfFailed();
        CausalHeaders.writeClock(outbound, clock);
    }

    /**
     * Stamps {@code outbound} with this clock merged with the clock it already carries, so a stamp
     * written by code (or copied from a consumed record) loses no claim.
     */
    synchronized void stampOver(Headers outbound, VectorClock carried) {
        refuseIfFailed();
        CausalHeaders.writeClock(outbound, carried == null ? clock : VectorClock.copyOf(carried).mergeMax(clock));
    }

    /**
     * The causal past this clock holds now: every record it observed and everything those depend
     * on, and every send it recorded as produced. A snapshot: later observations do not change it.
     *
     * @return the token, never null; empty before anything was observed or recorded
     */
    public synchronized CausalToken token() {
        return Tokens.of(clock);
    }

    /** Resolves a topic's id ahead of its acknowledgement, which runs on the producer's I/O thread. */
    void resolve(String topic) {
        topicId(topic);
    }

    /**
     * Marks this clock unusable: a cause it should hold is missing, so every later stamp would
     * under-claim. Only a restart (a fresh clock) clears it.
     */
    synchronized void fail(String reason) {
        if (failure == null) {
            failure = reason;
        }
    }

    synchronized String failure() {
        return failure;
    }

    private void refuseIfFailed() {
        if (failure != null) {
            throw new IllegalStateException("This causal clock refuses to stamp: " + failure
                    + ". Its stamps would miss that cause; fix the cause and restart the application");
        }
    }

    /**
     * Resolves outside the clock's lock: a lookup may wait on the cluster, and other threads (a
     * producer's I/O thread among them) must not wait for it to stamp or record known topics.
     */
    private UUID topicId(String topic) {
        UUID id = cache.get(topic);
        if (id == null) {
            id = topicIds.apply(topic);
            cache.putIfAbsent(topic, id);
        }
        return id;
    }

    static UUID describe(Admin admin, String topic) {
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
