package io.github.tobyjamesclements.parsley.docs.shop;

// tag::types[]
record PaymentConfirmed(String orderId, long amount) {
}
// end::types[]
