package io.github.tobyjamesclements.parsley;

import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records every record a plain consumer receives as a cause of every later send stamped by
 * {@link CausalProducerInterceptor} on the same shared clock (the same
 * {@value CausalProducerInterceptor#CLOCK_NAME_CONFIG}); set {@code interceptor.classes} to this
 * class. The record's own clock ({@value CausalHeaders#CLOCK}) is merged too, so its causes travel on.
 *
 * <p>Records are observed when {@code poll} returns them, before the application processes them:
 * a send made while a batch is being processed claims the whole batch. That over-claims records
 * already in the log, which can only delay a downstream stage, never reorder it or wait forever.
 *
 * <p>Refuses at {@code configure}, so the consumer fails to start, unless
 * {@code isolation.level=read_committed}: a read_uncommitted consumer sees records of open
 * transactions, and a send claiming a record whose transaction then aborts would be delivered by a
 * stage after a gap instead of after its cause, which never existed. A record with a corrupt
 * {@value CausalHeaders#CLOCK} fails the shared clock: its causes are unknown, so every later send
 * on that clock is refused (see {@link CausalProducerInterceptor}).
 */
public final class CausalConsumerInterceptor implements ConsumerInterceptor<Object, Object> {

    private static final Logger LOG = LoggerFactory.getLogger(CausalConsumerInterceptor.class);

    private CausalClock clock;
    private String clockName;

    /** Creates an unconfigured interceptor; Kafka calls {@link #configure} before any poll. */
    public CausalConsumerInterceptor() {
    }

    /**
     * Binds this interceptor to its shared clock.
     *
     * @throws ConfigException if the consumer is not read_committed, or as {@link CausalClock#shared}
     */
    @Override
    public void configure(Map<String, ?> configs) {
        Object isolation = configs.get(ConsumerConfig.ISOLATION_LEVEL_CONFIG);
        if (isolation == null || !"read_committed".equals(isolation.toString().toLowerCase(Locale.ROOT))) {
            throw new ConfigException(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation == null ? "read_uncommitted"
                    : isolation, CausalConsumerInterceptor.class.getSimpleName() + " records consumed records as"
                    + " causes, and only committed records may be causes: set isolation.level=read_committed");
        }
        clockName = CausalProducerInterceptor.clockName(configs);
        clock = CausalClock.shared(clockName, configs);
    }

    @Override
    public ConsumerRecords<Object, Object> onConsume(ConsumerRecords<Object, Object> records) {
        for (ConsumerRecord<Object, Object> record : records) {
            try {
                clock.observe(record);
            } catch (RuntimeException e) {
                clock.fail("cannot observe the consumed record topic=" + record.topic() + ", partition="
                        + record.partition() + ", offset=" + record.offset() + ": " + e.getMessage());
                LOG.error("Parsley causal clock '{}' failed and refuses every later send: {}", clockName,
                        clock.failure(), e);
            }
        }
        return records;
    }

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
        // Committing a position claims nothing: the records were observed when polled.
    }

    @Override
    public void close() {
        // The shared clock outlives any one consumer: other clients, and later ones, still use it.
    }
}
