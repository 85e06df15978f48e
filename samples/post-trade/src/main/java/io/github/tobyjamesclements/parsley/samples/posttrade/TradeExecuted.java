package io.github.tobyjamesclements.parsley.samples.posttrade;

/**
 * A trade: the exchange matched a buy order and a sell order of one symbol. Published to
 * {@value Topics#TRADES}, keyed by symbol, stamped after both orders.
 *
 * @param session the trading session
 * @param seq the event sequence number within the session, from 1
 * @param symbol the instrument, never null
 * @param buyOrderSeq the event seq of the buy order
 * @param sellOrderSeq the event seq of the sell order
 * @param buyer the buying firm, never null
 * @param seller the selling firm, never null
 * @param quantity the traded quantity
 * @param priceCents the trade price in cents
 * @param timestamp when the exchange matched it, epoch milliseconds
 */
public record TradeExecuted(long session, long seq, String symbol, long buyOrderSeq, long sellOrderSeq,
        String buyer, String seller, long quantity, long priceCents, long timestamp) {

    /**
     * The event id.
     *
     * @return {@code <session>-<seq>}, never null
     */
    public String eventId() {
        return EventIds.of(session, seq);
    }
}
