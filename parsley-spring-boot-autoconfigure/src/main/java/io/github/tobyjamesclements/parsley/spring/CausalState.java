package io.github.tobyjamesclements.parsley.spring;

import io.github.tobyjamesclements.parsley.Codec;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Overrides the state codec and initial state of one annotated stateful stage. Declare it as a
 * bean; without one a stage uses JSON and the state type's no-arg constructor.
 *
 * @param stage the stage name, never null
 * @param codec the state codec, never null
 * @param initial the state of a key that has none, never null (it may supply null)
 * @param <S> the state type
 */
public record CausalState<S>(String stage, Codec<S> codec, Supplier<S> initial) {

    /**
     * Validates.
     *
     * @throws NullPointerException if an argument is null
     */
    public CausalState {
        Objects.requireNonNull(stage, "stage");
        Objects.requireNonNull(codec, "codec");
        Objects.requireNonNull(initial, "initial");
    }

    /**
     * Declares the state of a stage.
     *
     * @param stage the stage name, never null
     * @param codec the state codec, never null
     * @param initial the initial state supplier, never null
     * @param <S> the state type
     * @return the declaration, never null
     */
    public static <S> CausalState<S> of(String stage, Codec<S> codec, Supplier<S> initial) {
        return new CausalState<>(stage, codec, initial);
    }
}
