package io.github.tobyjamesclements.parsley;

/**
 * A liveness or completeness obligation judged when the world has drained (protocol.md §14.1
 * L1-L4). Implementations are registered by {@link Obligations#validations()} and throw
 * {@link SimViolation}.
 */
interface Validation {

    void validate(SimWorld world);
}
