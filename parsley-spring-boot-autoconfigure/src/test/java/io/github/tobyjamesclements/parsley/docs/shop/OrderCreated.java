package io.github.tobyjamesclements.parsley.docs.shop;

// tag::types[]
record OrderCreated(String orderId, long amount) {
}
// end::types[]
