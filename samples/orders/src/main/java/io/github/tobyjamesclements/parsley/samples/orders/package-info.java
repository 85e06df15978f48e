/**
 * The orders sample: an order service and a payment service write to different topics, and a
 * Parsley stage notifies each payment only after its order.
 */
package io.github.tobyjamesclements.parsley.samples.orders;
