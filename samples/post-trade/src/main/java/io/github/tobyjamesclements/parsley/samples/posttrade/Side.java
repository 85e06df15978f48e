package io.github.tobyjamesclements.parsley.samples.posttrade;

/** The side of an order. */
public enum Side {
    /** An order to buy. */
    BUY,
    /** An order to sell. */
    SELL
}
