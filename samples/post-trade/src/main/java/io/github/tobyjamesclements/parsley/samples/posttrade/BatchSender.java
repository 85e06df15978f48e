package io.github.tobyjamesclements.parsley.samples.posttrade;

import io.github.tobyjamesclements.parsley.Topic;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * How one batch of journal lines goes out over a {@link PublisherConnection}: its orders first,
 * each acknowledged send recorded in the connection's clock, then its trades, each stamped with
 * that clock (unless {@code posttrade.publisher.stamp-trades=false}). The caller owns the order
 * transaction: it begins it before {@link #sendOrders} and commits it a round later. Used by the
 * publisher thread only.
 */
final class BatchSender {

    private static final long ACK_TIMEOUT_SECONDS = 10;

    private final PostTradeProperties.Publisher settings;
    private final Topic<String, OrderAccepted> orders;
    private final Topic<String, TradeExecuted> trades;

    BatchSender(PostTradeProperties.Publisher settings, Topic<String, OrderAccepted> orders,
            Topic<String, TradeExecuted> trades) {
        this.settings = settings;
        this.orders = orders;
        this.trades = trades;
    }

    /** Sends the orders in the open transaction and records each acknowledged send in the clock. */
    void sendOrders(PublisherConnection c, List<Journal.Line> lines)
            throws ExecutionException, InterruptedException, TimeoutException {
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (Journal.Line line : lines) {
            OrderAccepted order = line.entry().order();
            if (order != null) {
                ProducerRecord<byte[], byte[]> r = record(orders, order.symbol(), order, order.eventId(),
                        order.timestamp());
                if (settings.isStampTrades()) {
                    // Orders claim nothing the stage must wait for, yet a stage reading two topics
                    // warns about unstamped input: the stamp makes "no causes" explicit.
                    c.clock().stamp(r.headers());
                }
                acks.add(c.orders().send(r));
            }
        }
        c.orders().flush();
        for (Future<RecordMetadata> ack : acks) {
            c.clock().recordProduced(ack.get(ACK_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        }
    }

    /** Sends the trades, each stamped after every order recorded so far, and awaits their acknowledgements. */
    void sendTrades(PublisherConnection c, List<Journal.Line> lines)
            throws ExecutionException, InterruptedException, TimeoutException {
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (Journal.Line line : lines) {
            TradeExecuted trade = line.entry().trade();
            if (trade != null) {
                ProducerRecord<byte[], byte[]> r = record(trades, trade.symbol(), trade, trade.eventId(),
                        trade.timestamp());
                if (settings.isStampTrades()) {
                    c.clock().stamp(r.headers());
                }
                acks.add(c.trades().send(r));
            }
        }
        c.trades().flush();
        for (Future<RecordMetadata> ack : acks) {
            ack.get(ACK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    private static <V> ProducerRecord<byte[], byte[]> record(Topic<String, V> topic, String symbol, V value,
            String eventId, long timestamp) {
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic.name(), null, timestamp,
                topic.keyCodec().encode(symbol), topic.valueCodec().encode(value));
        r.headers().add(EventIds.HEADER, eventId.getBytes(StandardCharsets.UTF_8));
        return r;
    }
}
