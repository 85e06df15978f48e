package io.github.tobyjamesclements.parsley;

import java.util.List;
import java.util.Objects;

/**
 * The answer to a read of a stateful stage's state by key ({@code CausalStreams.read}): the
 * key's committed value, its absence, the instance that owns the key, or why no answer could be
 * given within the wait.
 *
 * <p>A {@link Found} or {@link Absent} comes from committed state that has delivered every record
 * the read's token claims on the channels the stage consumes; its {@code token} is the read's
 * token merged with what that state reflects, so a client that sends the latest token it received
 * with each read never reads older state than it has seen (monotonic reads) nor state missing its
 * own writes. A value that an abort or a crash could take back is never returned.
 *
 * @param <S> the stage's state type
 */
public sealed interface StateRead<S> permits StateRead.Found, StateRead.Absent, StateRead.Elsewhere,
        StateRead.NotReady {

    /**
     * The stage read.
     *
     * @return its name, never null
     */
    String stage();

    /**
     * The key has state.
     *
     * @param stage the stage read, never null
     * @param value the committed state, never null
     * @param token what the answer reflects, merged with the read's token; never null
     * @param <S> the state type
     */
    record Found<S>(String stage, S value, CausalToken token) implements StateRead<S> {

        /**
         * Validates.
         *
         * @throws NullPointerException if any component is null
         */
        public Found {
            Objects.requireNonNull(stage, "stage");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(token, "token");
        }
    }

    /**
     * The key has no state: no record for it was delivered, or its fold deleted it.
     *
     * @param stage the stage read, never null
     * @param token what the answer reflects, merged with the read's token; never null
     * @param <S> the state type
     */
    record Absent<S>(String stage, CausalToken token) implements StateRead<S> {

        /**
         * Validates.
         *
         * @throws NullPointerException if any component is null
         */
        public Absent {
            Objects.requireNonNull(stage, "stage");
            Objects.requireNonNull(token, "token");
        }
    }

    /**
     * Another instance owns the key's partition: ask it (its {@code application.server}).
     *
     * @param stage the stage read, never null
     * @param host the owner's host, never null
     * @param port the owner's port
     * @param <S> the state type
     */
    record Elsewhere<S>(String stage, String host, int port) implements StateRead<S> {

        /**
         * Validates.
         *
         * @throws NullPointerException if any component is null
         */
        public Elsewhere {
            Objects.requireNonNull(stage, "stage");
            Objects.requireNonNull(host, "host");
        }
    }

    /**
     * No answer within the wait. Retry later, with the same token: nothing about it was wrong.
     *
     * @param stage the stage read, never null
     * @param reason why, never null
     * @param detail what a person reads: which claims are unmet, or why no instance answers; never null
     * @param unmet the token's unmet claims for {@link Reason#BEHIND}, empty otherwise; never null
     * @param <S> the state type
     */
    record NotReady<S>(String stage, Reason reason, String detail, List<HeldRecord.UnmetClaim> unmet)
            implements StateRead<S> {

        /**
         * Validates and copies.
         *
         * @throws NullPointerException if any component is null
         */
        public NotReady {
            Objects.requireNonNull(stage, "stage");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(detail, "detail");
            unmet = List.copyOf(unmet);
        }
    }

    /** Why a read got no answer. */
    enum Reason {
        /** The owner's committed state has not yet delivered everything the token claims. */
        BEHIND,
        /** No instance owns the key's partition right now: a rebalance or a restore is under way. */
        NO_OWNER
    }
}
