package io.appbackplane.sample.orders;

/** The steps of an order: PLACED → RESERVED → PAID → CONFIRMED, or FAILED from any of the first three. */
public enum OrderState {
    /** Accepted; stock not yet reserved. */
    PLACED,
    /** The warehouse holds the stock. */
    RESERVED,
    /** The payment went through. */
    PAID,
    /** Done: the warehouse ships it. */
    CONFIRMED,
    /** Stopped: out of stock, declined, timed out or busy ({@code reason} says which). */
    FAILED
}
