package io.github.tobyjamesclements.parsley;

import java.util.function.BiFunction;
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
        } catch (RuntimeException e) {
            throw of(what + subject, e);
        }
    }

    /**
     * As {@link #guard(String, String, Supplier)}, for code that takes two arguments: a
     * non-capturing {@code code} (such as {@code Topic::decodeKey}) is one instance for the
     * application's life, where a lambda capturing the record would be one allocation per record.
     */
    static <A, B, T> T guard(String what, String subject, BiFunction<A, B, T> code, A a, B b) {
        try {
            return code.apply(a, b);
        } catch (RuntimeException e) {
            throw of(what + subject, e);
        }
    }

    /** The failure of {@code what} that user code's exception means: a nested failure stays itself. */
    static LogicFailure of(String what, RuntimeException e) {
        return e instanceof LogicFailure f ? f : new LogicFailure(what, e);
    }
}
