package io.github.tobyjamesclements.parsley.samples.posttrade;

import org.jspecify.annotations.Nullable;

/**
 * One line of the exchange's journal: exactly one of an accepted order or a trade.
 *
 * @param order the accepted order, or null for a trade
 * @param trade the trade, or null for an order
 */
public record JournalEntry(@Nullable OrderAccepted order, @Nullable TradeExecuted trade) {

    /**
     * Validates that exactly one side is set.
     *
     * @throws IllegalArgumentException if both or neither are set
     */
    public JournalEntry {
        if ((order == null) == (trade == null)) {
            throw new IllegalArgumentException("A journal entry holds exactly one of an order and a trade");
        }
    }

    static JournalEntry of(OrderAccepted order) {
        return new JournalEntry(order, null);
    }

    static JournalEntry of(TradeExecuted trade) {
        return new JournalEntry(null, trade);
    }

    long session() {
        return order != null ? order.session() : trade.session();
    }

    long seq() {
        return order != null ? order.seq() : trade.seq();
    }

    String symbol() {
        return order != null ? order.symbol() : trade.symbol();
    }
}
