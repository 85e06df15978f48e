package io.github.tobyjamesclements.parsley;

/**
 * A safety obligation judged while the world runs (protocol.md §14.1): at every delivery, at every
 * stamp, at every answered read, or after every scheduler step. Implementations are small, one per obligation, and are
 * registered by {@link Obligations#invariants()}; they throw {@link SimViolation}.
 */
interface Invariant {

    /** Judges a delivery before the oracle records it. */
    default void onDelivery(Oracle oracle, Oracle.Judged delivery) {
    }

    /**
     * Judges a dead letter before the oracle records it: by default like a delivery when the record
     * passed the gate ({@code gated}), and not at all when it was handled unread at consumption.
     */
    default void onDeadLetter(Oracle oracle, Oracle.Judged deadLetter, boolean gated) {
        if (gated) {
            onDelivery(oracle, deadLetter);
        }
    }

    /** Judges a stamp the node produced for a send to {@code destination}. */
    default void onSend(SimWorld world, SimNode node, Channel destination, SendStamp stamp) {
    }

    /** Judges a read the read gate answered (protocol.md §17), before the session takes its answer. */
    default void onRead(SimWorld world, SimReader.Read read) {
    }

    /** Judges the world after a step taken by {@code actor} (null for a world action). */
    default void afterStep(SimWorld world, SimNode actor) {
    }
}
