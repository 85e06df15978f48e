package io.github.tobyjamesclements.parsley.samples.posttrade;

/**
 * The last event of one kind (orders or trades) applied for a symbol. Each kind of a symbol
 * arrives on one partition, in journal order, so everything at or below the watermark is a copy
 * of an event already applied.
 *
 * @param session the trading session of the last applied event; 0 before any
 * @param seq its event seq; 0 before any
 */
public record Watermark(long session, long seq) {

    static final Watermark NONE = new Watermark(0, 0);

    /** Whether the event {@code (session, seq)} is at or below this watermark. */
    boolean covers(long session, long seq) {
        return session < this.session || (session == this.session && seq <= this.seq);
    }
}
