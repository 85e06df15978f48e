package io.github.tobyjamesclements.parsley.samples.posttrade;

import io.github.tobyjamesclements.parsley.Codec;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.spring.ParsleyCodecs;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The sample's topics, all keyed by symbol and co-partitioned (the same partition count), since
 * the post-trade stage consumes partition {@code p} of both exchange topics in one task.
 */
@Configuration(proxyBeanMethods = false)
class Topics {

    /** Accepted orders, from the exchange's publisher. */
    static final String ORDERS = "exchange-orders";

    /** Trades, from the exchange's publisher, each stamped after its two orders. */
    static final String TRADES = "exchange-events";

    /** What the post-trade stage applied, read by the checker. */
    static final String APPLIED = "post-trade-applied";

    @Bean
    Topic<String, OrderAccepted> exchangeOrders(ParsleyCodecs codecs) {
        return Topic.of(ORDERS, Codec.utf8(), codecs.json(OrderAccepted.class));
    }

    @Bean
    Topic<String, TradeExecuted> exchangeEvents(ParsleyCodecs codecs) {
        return Topic.of(TRADES, Codec.utf8(), codecs.json(TradeExecuted.class));
    }

    @Bean
    Topic<String, Applied> postTradeApplied(ParsleyCodecs codecs) {
        return Topic.of(APPLIED, Codec.utf8(), codecs.json(Applied.class));
    }
}
