package io.github.tobyjamesclements.parsley;

import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * Stateful user logic: one step of per-key state over a delivered message.
 *
 * <p>State is kept per message key in the stage's fold store and commits with the delivery, so,
 * with causal delivery and a pure fold, the state is a deterministic function of the delivered
 * history. The fold must not mutate {@code state}; it returns the next state (null deletes it).
 *
 * @param <S> the state type
 * @param <K> the key type
 * @param <V> the value type
 */
@FunctionalInterface
public interface Fold<S, K, V> {

    /**
     * Applies one message.
     *
     * @param state the key's current state, or the stage's initial state when the key has none
     *     (may be null if the initial state is null)
     * @param message the delivered message, never null
     * @return the next state and emissions, never null
     */
    Step<S> apply(S state, Message<K, V> message);

    /**
     * Turns a {@link RuntimeException} from {@code fold} into emissions, leaving the state
     * unchanged. Only for deterministic failures. An {@link Error} always propagates.
     *
     * @param fold the fold, never null
     * @param recovery maps the failed message and its exception to emissions, never null
     * @param <S> the state type
     * @param <K> the key type
     * @param <V> the value type
     * @return the recovering fold, never null
     */
    static <S, K, V> Fold<S, K, V> recovering(Fold<S, K, V> fold,
            BiFunction<Message<K, V>, RuntimeException, List<Emission>> recovery) {
        Objects.requireNonNull(fold, "fold");
        Objects.requireNonNull(recovery, "recovery");
        return (s, m) -> {
            try {
                return fold.apply(s, m);
            } catch (RuntimeException e) {
                return new Step<>(s, recovery.apply(m, e));
            }
        };
    }
}
