package io.github.tobyjamesclements.parsley.samples.posttrade;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A toy matching engine: it accepts random orders and matches each against the oldest resting
 * order of the other side, numbering every event of the session from 1 without gaps. A trade
 * names the seqs of the two orders it matched; the resting one may be far older than the new one.
 * Deterministic for a given {@link Random}; not thread-safe.
 */
final class MatchingEngine {

    static final List<String> FIRMS = List.of("ALPHA", "BRAVO", "CHARLIE", "DELTA");

    private static final int MAX_RESTING = 20;

    private final long session;
    private final List<String> symbols;
    private final Random random;
    private final Map<String, Book> books = new HashMap<>();
    private long seq;

    /**
     * @param session the trading session
     * @param lastSeq the last seq already used in this session (0 for a new one)
     */
    MatchingEngine(long session, long lastSeq, List<String> symbols, Random random) {
        if (symbols.isEmpty()) {
            throw new IllegalArgumentException("The exchange needs at least one symbol; set posttrade.exchange.symbols");
        }
        this.session = session;
        this.seq = lastSeq;
        this.symbols = List.copyOf(symbols);
        this.random = random;
    }

    long session() {
        return session;
    }

    long lastSeq() {
        return seq;
    }

    /** Accepts one random order: its event, then a trade event if it matched. */
    List<JournalEntry> submitRandomOrder(long now) {
        String symbol = symbols.get(random.nextInt(symbols.size()));
        Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        String firm = FIRMS.get(random.nextInt(FIRMS.size()));
        long quantity = 100L * (1 + random.nextInt(10));
        return submit(symbol, side, firm, quantity, now);
    }

    List<JournalEntry> submit(String symbol, Side side, String firm, long quantity, long now) {
        Book book = books.computeIfAbsent(symbol, s -> new Book(10_000 + random.nextInt(40_000)));
        book.price = Math.max(100, book.price + random.nextInt(11) - 5);
        OrderAccepted order = new OrderAccepted(session, ++seq, symbol, side, firm, quantity, book.price, now);
        List<JournalEntry> events = new ArrayList<>(2);
        events.add(JournalEntry.of(order));
        long open = quantity;
        Deque<Resting> other = side == Side.BUY ? book.asks : book.bids;
        Resting resting = other.peekFirst();
        if (resting != null) {
            long traded = Math.min(open, resting.open);
            boolean buy = side == Side.BUY;
            events.add(JournalEntry.of(new TradeExecuted(session, ++seq, symbol, buy ? order.seq() : resting.seq,
                    buy ? resting.seq : order.seq(), buy ? firm : resting.firm, buy ? resting.firm : firm, traded,
                    book.price, now)));
            resting.open -= traded;
            open -= traded;
            if (resting.open == 0) {
                other.removeFirst();
            }
        }
        if (open > 0) {
            Deque<Resting> same = side == Side.BUY ? book.bids : book.asks;
            same.addLast(new Resting(order.seq(), firm, open));
            if (same.size() > MAX_RESTING) {
                same.removeFirst();
            }
        }
        return events;
    }

    private static final class Book {
        final Deque<Resting> bids = new ArrayDeque<>();
        final Deque<Resting> asks = new ArrayDeque<>();
        long price;

        Book(long price) {
            this.price = price;
        }
    }

    private static final class Resting {
        final long seq;
        final String firm;
        long open;

        Resting(long seq, String firm, long open) {
            this.seq = seq;
            this.firm = firm;
            this.open = open;
        }
    }
}
