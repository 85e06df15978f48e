package io.github.tobyjamesclements.parsley.samples.orders;

/**
 * An order placed by a customer, written by the order service to {@code orders}, keyed by customer id.
 *
 * @param orderId the order's id, unique across runs
 * @param amount the order's amount in cents
 */
public record OrderCreated(String orderId, long amount) {
}
