package io.github.tobyjamesclements.parsley.samples.orders;

/**
 * A customer's running totals, the state of the balances fold and what it writes to {@code balances}.
 *
 * @param paid the total paid in cents
 * @param payments how many payments were applied; each update is exactly one more
 */
public record Balance(long paid, long payments) {

    /** The balance of a customer with no payment yet: the fold's initial state. */
    public Balance() {
        this(0, 0);
    }

    Balance plus(long amount) {
        return new Balance(paid + amount, payments + 1);
    }
}
