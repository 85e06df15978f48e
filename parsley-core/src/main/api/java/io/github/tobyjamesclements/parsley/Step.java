package io.github.tobyjamesclements.parsley;

import java.util.List;

/**
 * The result of one fold step: the next state and the emissions it causes. Immutable when the
 * state is.
 *
 * @param state the next state; null deletes the key's state
 * @param emissions the emissions in order, never null
 * @param <S> the state type
 */
public record Step<S>(S state, List<Emission> emissions) {

    /**
     * Copies the emissions.
     *
     * @throws NullPointerException if the emissions or one of them is null
     */
    public Step {
        emissions = List.copyOf(emissions);
    }

    /**
     * A step with the given emissions.
     *
     * @param state the next state, may be null
     * @param emissions the emissions, none null
     * @param <S> the state type
     * @return the step, never null
     */
    public static <S> Step<S> of(S state, Emission... emissions) {
        return new Step<>(state, List.of(emissions));
    }
}
