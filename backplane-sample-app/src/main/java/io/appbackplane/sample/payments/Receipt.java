package io.appbackplane.sample.payments;

/** A successful charge. */
public record Receipt(String id, String orderId, long amountCents) {}
