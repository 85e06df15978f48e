package io.github.tobyjamesclements.parsley;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stamps every record a plain producer sends and records every acknowledged send, with no code
 * around the sends: set {@code interceptor.classes} to this class (protocol.md §6.6 applied by
 * Kafka's interceptor hooks).
 *
 * <p>All producers and consumers of a JVM that use these interceptors share one
 * {@link CausalClock} ({@link CausalClock#shared}), named {@value #DEFAULT_CLOCK_NAME} unless
 * {@value #CLOCK_NAME_CONFIG} names another; so a record consumed through
 * {@link CausalConsumerInterceptor}, and every send acknowledged before, are causes of every send
 * made after. What is claimed:
 * <ul>
 * <li>an acknowledged send ({@code onAcknowledgement} with metadata and no exception), once
 * acknowledged: a send that has not yet been acknowledged when a later record is stamped is not
 * among that record's causes. Await the send (or {@code flush()}) between sends that must be
 * ordered; pipelined sends are stamped validly but not ordered among themselves. Failed sends
 * are never claimed;</li>
 * <li>a send of a transactional producer once acknowledged, before its commit, as
 * {@link CausalClock#recordProduced} does: if it commits, a stage delivers it before what claims it;
 * if it aborts, a read_committed stage passes its offset as a gap. Either way the claim only
 * delays.</li>
 * </ul>
 * The stamp is the {@value CausalHeaders#CLOCK} header without a sender tag, so it needs no
 * partition: it does not matter that {@code onSend} runs before the partitioner.
 *
 * <p>A record that already carries a valid {@value CausalHeaders#CLOCK} (stamped by code with a
 * {@link CausalClock}, or copied from a consumed record) keeps its claims: the stamp is its clock
 * merged with the shared one. A sender tag inside a {@value CausalHeaders#CLOCK} header copied
 * from a stage's emission, as a dead-letter publisher copies headers, is removed: it states
 * that sender's send sequence on the record's original partition, which is false of the copy. The
 * copy keeps the original's clock, and depends on the original itself when it was consumed through
 * {@link CausalConsumerInterceptor} on the same clock.
 * Other headers are left alone.
 *
 * <p>Refuses, loudly: a record whose {@value CausalHeaders#CLOCK} header is corrupt, and
 * every send after the shared clock failed to record a cause. Kafka ignores exceptions thrown by
 * interceptors, so a refused send is redirected to an invalid topic name that states the reason;
 * the send then fails ({@code InvalidTopicException} through its future and callback) instead of
 * leaving unstamped, and the reason is logged at ERROR.
 */
public final class CausalProducerInterceptor implements ProducerInterceptor<Object, Object> {

    /** Names the shared clock; clients configured with the same name share causal past. */
    public static final String CLOCK_NAME_CONFIG = "parsley.clock.name";

    /** The clock name used when {@value #CLOCK_NAME_CONFIG} is not set. */
    public static final String DEFAULT_CLOCK_NAME = "default";

    private static final Logger LOG = LoggerFactory.getLogger(CausalProducerInterceptor.class);

    private CausalClock clock;
    private String clockName;

    /** Creates an unconfigured interceptor; Kafka calls {@link #configure} before any send. */
    public CausalProducerInterceptor() {
    }

    /**
     * Binds this interceptor to its shared clock.
     *
     * @throws org.apache.kafka.common.config.ConfigException as {@link CausalClock#shared}
     */
    @Override
    public void configure(Map<String, ?> configs) {
        clockName = clockName(configs);
        clock = CausalClock.shared(clockName, configs);
    }

    static String clockName(Map<String, ?> configs) {
        Object name = configs.get(CLOCK_NAME_CONFIG);
        return name == null ? DEFAULT_CLOCK_NAME : name.toString();
    }

    @Override
    public ProducerRecord<Object, Object> onSend(ProducerRecord<Object, Object> record) {
        try {
            CausalHeaders.Read carried = CausalHeaders.read(record.headers(), "outbound record to topic="
                    + record.topic());
            // the stamp replaces the clock header, so a copied sender tag (false of the copy) goes with it
            clock.stampOver(record.headers(), carried.clock());
        } catch (RuntimeException e) {
            return refuse(record, e);
        }
        prefetchTopicId(record.topic());
        return record;
    }

    /**
     * Resolves the topic's id on the sending thread, so its acknowledgement need not block the
     * producer's I/O thread; a topic the send itself creates resolves at the acknowledgement instead.
     */
    private void prefetchTopicId(String topic) {
        try {
            clock.resolve(topic);
        } catch (RuntimeException e) {
            LOG.debug("Topic id of {} not resolved before its send; resolving at its acknowledgement", topic, e);
        }
    }

    private ProducerRecord<Object, Object> refuse(ProducerRecord<Object, Object> record, RuntimeException e) {
        LOG.error("Parsley refused a send to topic={} (causal clock '{}'): {}", record.topic(), clockName,
                e.getMessage(), e);
        String reason = "parsley refused this send to " + record.topic() + ", see the log of "
                + CausalProducerInterceptor.class.getName();
        return new ProducerRecord<>(reason, record.partition(), record.timestamp(), record.key(), record.value(),
                record.headers());
    }

    @Override
    public void onAcknowledgement(RecordMetadata metadata, Exception exception) {
        if (exception != null || metadata == null || !metadata.hasOffset()) {
            return;
        }
        try {
            clock.recordProduced(metadata);
        } catch (RuntimeException e) {
            String reason = "cannot record the acknowledged send topic=" + metadata.topic() + ", partition="
                    + metadata.partition() + ", offset=" + metadata.offset() + ": " + e.getMessage();
            clock.fail(reason);
            LOG.error("Parsley causal clock '{}' failed and refuses every later send: {}", clockName, reason, e);
        }
    }

    @Override
    public void close() {
        // The shared clock outlives any one producer: other clients, and later ones, still use it.
    }
}
