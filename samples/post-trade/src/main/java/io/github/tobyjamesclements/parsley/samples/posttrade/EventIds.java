package io.github.tobyjamesclements.parsley.samples.posttrade;

/**
 * Event ids of the exchange: {@code <session>-<seq>}, the trading session (the millisecond the
 * journal was started) and the event's sequence number within it, from 1 and without gaps.
 */
final class EventIds {

    /** The record header that carries the event id, as the exchange's publisher writes it. */
    static final String HEADER = "eventId";

    private EventIds() {
    }

    static String of(long session, long seq) {
        return session + "-" + seq;
    }
}
