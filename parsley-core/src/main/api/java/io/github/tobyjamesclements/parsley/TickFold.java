package io.github.tobyjamesclements.parsley;

/**
 * Stateful logic run on each delivered {@link Tick}, over one state slot per task partition
 * (separate from the per-key states of the stage's folds). Same rules as {@link Fold}.
 *
 * @param <S> the state type
 */
@FunctionalInterface
public interface TickFold<S> {

    /**
     * Applies one tick.
     *
     * @param state the slot's state, or the stage's initial state
     * @param tick the delivered tick, never null
     * @return the next state and emissions, never null
     */
    Step<S> apply(S state, Tick tick);
}
