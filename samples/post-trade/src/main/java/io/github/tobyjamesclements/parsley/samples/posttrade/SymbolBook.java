package io.github.tobyjamesclements.parsley.samples.posttrade;

import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The post-trade stage's fold state for one symbol: what it has applied (a watermark per event
 * kind, for deduplication) and what that produced (traded volume, net position per firm).
 * Immutable; stored as JSON in the stage's state store.
 *
 * @param orders the last order applied, never null
 * @param trades the last trade applied, never null
 * @param volume the quantity traded so far
 * @param positions the net position per firm (bought minus sold), never null
 */
public record SymbolBook(Watermark orders, Watermark trades, long volume, SortedMap<String, Long> positions) {

    /** Copies the positions. */
    public SymbolBook {
        positions = new TreeMap<>(positions);
    }

    /** The book of a symbol with no events yet: the stage's initial state. */
    SymbolBook() {
        this(Watermark.NONE, Watermark.NONE, 0, new TreeMap<>());
    }

    boolean hasApplied(OrderAccepted order) {
        return orders.covers(order.session(), order.seq());
    }

    boolean hasApplied(TradeExecuted trade) {
        return trades.covers(trade.session(), trade.seq());
    }

    /** Whether both orders of a trade were applied: orders of a symbol are applied in seq order. */
    boolean hasAppliedOrdersOf(TradeExecuted trade) {
        return orders.covers(trade.session(), Math.max(trade.buyOrderSeq(), trade.sellOrderSeq()));
    }

    SymbolBook apply(OrderAccepted order) {
        return new SymbolBook(new Watermark(order.session(), order.seq()), trades, volume, positions);
    }

    SymbolBook apply(TradeExecuted trade) {
        SortedMap<String, Long> next = new TreeMap<>(positions);
        next.merge(trade.buyer(), trade.quantity(), Long::sum);
        next.merge(trade.seller(), -trade.quantity(), Long::sum);
        return new SymbolBook(orders, new Watermark(trade.session(), trade.seq()), volume + trade.quantity(), next);
    }
}
