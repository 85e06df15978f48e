package io.github.tobyjamesclements.parsley;

/**
 * Thrown when causal header or stored clock bytes cannot be decoded under Parsley's strict
 * rules: an unknown version, a non-minimal or overlong varint, unsorted or duplicate entries,
 * truncation, trailing bytes, a header present with a null value, a duplicated protocol header,
 * or a sender or sequence header of the wrong length.
 *
 * <p>A stage that meets one fails its task rather than skipping the record: after an
 * undecodable clock any further stamp could under-claim causes the stage can no longer see.
 * The message names what is wrong and, when raised for a consumed record, the topic, partition
 * and offset.
 */
public class CorruptClockException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception with a message that says what is wrong and where.
     *
     * @param message the description, never null
     */
    public CorruptClockException(String message) {
        super(message);
    }

    /**
     * Creates an exception with a message and the underlying cause.
     *
     * @param message the description, never null
     * @param cause the cause, may be null
     */
    public CorruptClockException(String message, Throwable cause) {
        super(message, cause);
    }
}
