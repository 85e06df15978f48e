package io.github.tobyjamesclements.parsley.samples.orders;

/**
 * A payment the notifier accepted, written to {@code ledger} for the balances fold, keyed by customer id.
 *
 * @param orderId the id of the order paid
 * @param amount the amount paid in cents
 */
public record PaymentApplied(String orderId, long amount) {
}
