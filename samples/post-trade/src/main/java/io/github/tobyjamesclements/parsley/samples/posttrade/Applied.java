package io.github.tobyjamesclements.parsley.samples.posttrade;

import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the post-trade stage did with one delivered event: applied it, or recognised a copy it had
 * already applied. Published to {@value Topics#APPLIED}, keyed by symbol; the checker reads these.
 *
 * @param eventId the event id, never null
 * @param symbol the instrument, never null
 * @param kind an order or a trade, never null
 * @param outcome applied, or a duplicate that changed nothing, never null
 * @param causesFirst for an applied trade, whether both of its orders had been applied before it;
 *     true for everything else
 * @param volume the symbol's traded quantity after this event
 * @param positions the symbol's net position per firm after this event, never null
 */
public record Applied(String eventId, String symbol, Kind kind, Outcome outcome, boolean causesFirst, long volume,
        SortedMap<String, Long> positions) {

    /** Copies the positions. */
    public Applied {
        positions = new TreeMap<>(positions);
    }

    static Applied of(String eventId, String symbol, Kind kind, Outcome outcome, boolean causesFirst,
            SymbolBook book) {
        return new Applied(eventId, symbol, kind, outcome, causesFirst, book.volume(), book.positions());
    }

    /** The kind of event. */
    public enum Kind {
        /** An accepted order. */
        ORDER,
        /** A trade. */
        TRADE
    }

    /** What the stage did with the event. */
    public enum Outcome {
        /** Applied to the symbol's book: the first copy of this event id. */
        APPLIED,
        /** A copy of an event already applied (an at-least-once resend): ignored. */
        DUPLICATE
    }
}
