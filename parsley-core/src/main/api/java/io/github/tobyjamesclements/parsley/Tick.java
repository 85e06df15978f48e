package io.github.tobyjamesclements.parsley;

/**
 * Time, delivered as data: one record of a stage's tick loop. A tick is ordered after everything
 * its task had received when it was emitted, so tick logic sees a consistent cut of the history.
 *
 * @param timestamp the wall-clock time of emission, epoch milliseconds
 */
public record Tick(long timestamp) {
}
