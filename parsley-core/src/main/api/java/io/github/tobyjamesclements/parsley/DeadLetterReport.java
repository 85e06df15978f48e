package io.github.tobyjamesclements.parsley;

import java.time.Instant;
import java.util.Objects;

/**
 * What one stage of this instance has written to the application's dead-letter topic since the
 * instance started ({@link Parsley#deadLetterTopic(String)}): how many records, and the last
 * error. Key and value bytes are never included; the error message is the failing code's own and
 * may quote what it could not handle.
 *
 * <p>The count is of records dead-lettered by steps of this instance, including a step whose
 * transaction then aborted (a crash before the commit) and ran again: the dead-letter topic read
 * with {@code read_committed} holds each record once, the count may say it twice.
 *
 * @param stage the stage, never null
 * @param deadLetterTopic the dead-letter topic, never null
 * @param count records dead-lettered by this instance's tasks of the stage
 * @param last the last error, or null while {@code count} is 0
 */
public record DeadLetterReport(String stage, String deadLetterTopic, long count, LastError last) {

    /**
     * Validates.
     *
     * @throws NullPointerException if the stage or topic is null
     * @throws IllegalArgumentException if the count is negative, or a last error is missing or
     *     present against the count
     */
    public DeadLetterReport {
        Objects.requireNonNull(stage, "stage");
        Objects.requireNonNull(deadLetterTopic, "deadLetterTopic");
        if (count < 0 || (count == 0) != (last == null)) {
            throw new IllegalArgumentException("A dead-letter report has a last error exactly when its count is"
                    + " positive; stage=" + stage + ", count=" + count + ", last=" + last);
        }
    }

    /**
     * The error that sent the last record to the dead-letter topic, and where that record came from.
     *
     * @param exception the exception's class name: the failing code's own, or
     *     {@link CorruptClockException} for unreadable causal headers; never null
     * @param message the exception's message, may be null
     * @param topic the record's source topic, never null
     * @param partition its partition
     * @param offset its offset
     * @param at when the stage wrote the dead letter (the stream thread's clock), never null
     */
    public record LastError(String exception, String message, String topic, int partition, long offset,
            Instant at) {

        /**
         * Validates.
         *
         * @throws NullPointerException if the exception, topic or instant is null
         */
        public LastError {
            Objects.requireNonNull(exception, "exception");
            Objects.requireNonNull(topic, "topic");
            Objects.requireNonNull(at, "at");
        }
    }
}
