package io.github.tobyjamesclements.parsley.samples.posttrade;

import io.github.tobyjamesclements.parsley.CausalClock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The publisher's Kafka clients for one connected spell: a transactional producer for orders, an
 * idempotent producer for trades, and the {@link CausalClock} that stamps trades after their
 * orders. An outage drops it whole, clock included. Used by the publisher thread only.
 */
final class PublisherConnection {

    private static final Logger log = LoggerFactory.getLogger(PublisherConnection.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final KafkaProducer<byte[], byte[]> orders;
    private final KafkaProducer<byte[], byte[]> trades;
    private final Admin admin;
    private final CausalClock clock;

    private PublisherConnection(KafkaProducer<byte[], byte[]> orders, KafkaProducer<byte[], byte[]> trades,
            Admin admin) {
        this.orders = orders;
        this.trades = trades;
        this.admin = admin;
        this.clock = new CausalClock(admin);
    }

    static PublisherConnection open(KafkaClients clients, String transactionalId) {
        Map<String, Object> base = clients.producer();
        base.put(ProducerConfig.ACKS_CONFIG, "all");
        base.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        base.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        base.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        base.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000);
        base.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        Map<String, Object> ordersConfig = new HashMap<>(base);
        ordersConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        ordersConfig.put(ProducerConfig.CLIENT_ID_CONFIG, transactionalId + "-orders");
        Map<String, Object> tradesConfig = new HashMap<>(base);
        tradesConfig.put(ProducerConfig.CLIENT_ID_CONFIG, transactionalId + "-trades");
        KafkaProducer<byte[], byte[]> orders = null;
        KafkaProducer<byte[], byte[]> trades = null;
        try {
            orders = new KafkaProducer<>(ordersConfig, new ByteArraySerializer(), new ByteArraySerializer());
            orders.initTransactions();
            trades = new KafkaProducer<>(tradesConfig, new ByteArraySerializer(), new ByteArraySerializer());
            return new PublisherConnection(orders, trades, Admin.create(clients.admin()));
        } catch (RuntimeException e) {
            close(orders);
            close(trades);
            throw e;
        }
    }

    KafkaProducer<byte[], byte[]> orders() {
        return orders;
    }

    KafkaProducer<byte[], byte[]> trades() {
        return trades;
    }

    CausalClock clock() {
        return clock;
    }

    /**
     * Closes every client. An open order transaction is committed first when possible: its orders
     * were sent before any of its trades, and aborting it could leave readable trades whose orders
     * never appear. Only when the commit fails is it aborted.
     */
    void close(boolean openTransaction) {
        if (openTransaction) {
            try {
                orders.commitTransaction();
            } catch (RuntimeException e) {
                log.warn("Cannot commit the open order transaction; aborting it", e);
                try {
                    orders.abortTransaction();
                } catch (RuntimeException again) {
                    log.debug("Cannot abort the open order transaction; the broker aborts it on timeout", again);
                }
            }
        }
        close(orders);
        close(trades);
        admin.close(CLOSE_TIMEOUT);
    }

    private static void close(@Nullable KafkaProducer<byte[], byte[]> producer) {
        if (producer != null) {
            producer.close(CLOSE_TIMEOUT);
        }
    }
}
