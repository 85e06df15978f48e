package io.github.tobyjamesclements.parsley.samples.orders;

/**
 * A payment for an order, written by the payment service to {@code payments} after it saw the
 * order, keyed by customer id.
 *
 * @param orderId the id of the order paid
 * @param amount the amount paid in cents
 */
public record PaymentConfirmed(String orderId, long amount) {
}
