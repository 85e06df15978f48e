package io.github.tobyjamesclements.parsley.samples.posttrade;

/**
 * An order the exchange accepted: event {@code seq} of trading session {@code session}. Published
 * to {@value Topics#ORDERS}, keyed by symbol.
 *
 * @param session the trading session
 * @param seq the event sequence number within the session, from 1
 * @param symbol the instrument, never null
 * @param side buy or sell, never null
 * @param firm the member firm that sent the order, never null
 * @param quantity the order quantity
 * @param priceCents the limit price in cents
 * @param timestamp when the exchange accepted it, epoch milliseconds
 */
public record OrderAccepted(long session, long seq, String symbol, Side side, String firm, long quantity,
        long priceCents, long timestamp) {

    /**
     * The event id.
     *
     * @return {@code <session>-<seq>}, never null
     */
    public String eventId() {
        return EventIds.of(session, seq);
    }
}
