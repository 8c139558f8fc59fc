package io.appbackplane.sample.warehouse;

/** Stock the warehouse holds for an order until it is committed (shipped) or released. */
public record Reservation(String id, String orderId, String sku, int quantity) {}
