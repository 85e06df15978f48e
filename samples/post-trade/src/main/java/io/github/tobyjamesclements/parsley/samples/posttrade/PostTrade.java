package io.github.tobyjamesclements.parsley.samples.posttrade;

import io.github.tobyjamesclements.parsley.Emission;
import io.github.tobyjamesclements.parsley.Message;
import io.github.tobyjamesclements.parsley.Step;
import io.github.tobyjamesclements.parsley.Topic;
import io.github.tobyjamesclements.parsley.samples.posttrade.Applied.Kind;
import io.github.tobyjamesclements.parsley.samples.posttrade.Applied.Outcome;
import io.github.tobyjamesclements.parsley.spring.CausalFold;
import org.springframework.stereotype.Component;

/**
 * The post-trade stage: one causal stage over both exchange topics, with a {@link SymbolBook} of
 * fold state per symbol.
 *
 * <ul>
 *   <li><b>Exactly one application per event id.</b> The publisher sends at least once, so copies
 *       arrive; the book's watermarks recognise them in the same transaction that applies an event,
 *       so a copy is never applied, even across crashes and restarts.</li>
 *   <li><b>Trades after their orders.</b> Orders and trades travel on different topics, and the
 *       publisher's order sends become visible later than the trades it stamps after them. Parsley
 *       holds each trade until both of its orders were delivered here; the stage still checks, and
 *       reports a trade whose orders it has not applied as {@code causesFirst=false}.</li>
 * </ul>
 */
@Component
class PostTrade {

    static final String STAGE = "post-trade";

    private final Topic<String, Applied> applied;

    PostTrade(Topic<String, Applied> applied) {
        this.applied = applied;
    }

    @CausalFold(stage = STAGE, source = Topics.ORDERS, sinks = Topics.APPLIED)
    Step<SymbolBook> onOrder(SymbolBook book, Message<String, OrderAccepted> m) {
        OrderAccepted order = m.value();
        if (book.hasApplied(order)) {
            return Step.of(book, report(order.eventId(), order.symbol(), Kind.ORDER, Outcome.DUPLICATE, true, book));
        }
        SymbolBook next = book.apply(order);
        return Step.of(next, report(order.eventId(), order.symbol(), Kind.ORDER, Outcome.APPLIED, true, next));
    }

    @CausalFold(stage = STAGE, source = Topics.TRADES, sinks = Topics.APPLIED)
    Step<SymbolBook> onTrade(SymbolBook book, Message<String, TradeExecuted> m) {
        TradeExecuted trade = m.value();
        if (book.hasApplied(trade)) {
            return Step.of(book, report(trade.eventId(), trade.symbol(), Kind.TRADE, Outcome.DUPLICATE, true, book));
        }
        boolean ordersFirst = book.hasAppliedOrdersOf(trade);
        SymbolBook next = book.apply(trade);
        return Step.of(next, report(trade.eventId(), trade.symbol(), Kind.TRADE, Outcome.APPLIED, ordersFirst, next));
    }

    private Emission report(String eventId, String symbol, Kind kind,
            Outcome outcome, boolean causesFirst, SymbolBook book) {
        return applied.send(symbol, Applied.of(eventId, symbol, kind, outcome, causesFirst, book));
    }
}
