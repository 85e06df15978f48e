package io.github.tobyjamesclements.parsley.docs.shop;

// tag::types[]
// Fold state: the no-arg constructor is the initial state of every key.
record Balance(long paid, int payments) {

    Balance() {
        this(0, 0);
    }

    Balance add(long amount) {
        return new Balance(paid + amount, payments + 1);
    }
}
// end::types[]
