package io.github.tobyjamesclements.parsley;

import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * Stateless user logic: one delivered message to the emissions it causes.
 *
 * <p>A handler must be deterministic and free of side effects outside its return value: only
 * returned emissions are ordered and committed with the delivery. It runs on a stream thread, one
 * message at a time per task. An exception fails the task; the step aborts and the same message is
 * redelivered, so a deterministic failure blocks its partition until the code changes (see
 * {@link #recovering}).
 *
 * @param <K> the key type
 * @param <V> the value type
 */
@FunctionalInterface
public interface Handler<K, V> {

    /**
     * Handles one message.
     *
     * @param message the delivered message, never null
     * @return the emissions, in order; never null, may be empty
     */
    List<Emission> handle(Message<K, V> message);

    /**
     * Turns a {@link RuntimeException} from {@code handler} into emissions (for example to a
     * dead-letter topic the stage declares as a sink). Only for deterministic failures: the
     * recovery runs instead of a retry. An {@link Error} always propagates.
     *
     * @param handler the handler, never null
     * @param recovery maps the failed message and its exception to emissions, never null
     * @param <K> the key type
     * @param <V> the value type
     * @return the recovering handler, never null
     */
    static <K, V> Handler<K, V> recovering(Handler<K, V> handler,
            BiFunction<Message<K, V>, RuntimeException, List<Emission>> recovery) {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(recovery, "recovery");
        return m -> {
            try {
                return handler.handle(m);
            } catch (RuntimeException e) {
                return recovery.apply(m, e);
            }
        };
    }
}
