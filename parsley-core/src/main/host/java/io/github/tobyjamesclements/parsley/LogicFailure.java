package io.github.tobyjamesclements.parsley;

import java.util.function.Supplier;

/**
 * A step's user-supplied code failed on one delivered record: a source codec that cannot decode
 * it, the handler or fold (or the state's codec or initial value), or the encoding of one of its
 * emissions. Only these are poison: a failure of the store, the broker or the protocol is never
 * wrapped, so it can never be dead-lettered. Thrown before the step wrote its state or sent
 * anything, which is what lets the host dead-letter the record instead.
 */
final class LogicFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String what;

    LogicFailure(String what, RuntimeException cause) {
        super(what + " failed: " + cause, cause);
        this.what = what;
    }

    /** What failed, for example {@code value codec of topic payments} or {@code fold}. */
    String what() {
        return what;
    }

    /** Runs user code, wrapping what it throws (never an {@link Error}) as the failure of {@code what}. */
    static <T> T guard(String what, Supplier<T> code) {
        return guard(what, "", code);
    }

    /**
     * As {@link #guard(String, Supplier)}, for the failure of {@code what + subject}: the two are
     * joined only when the code fails, because the guard runs for every record.
     */
    static <T> T guard(String what, String subject, Supplier<T> code) {
        try {
            return code.get();
        } catch (LogicFailure f) {
            throw f;
        } catch (RuntimeException e) {
            throw new LogicFailure(what + subject, e);
        }
    }
}
