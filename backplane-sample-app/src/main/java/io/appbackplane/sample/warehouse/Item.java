package io.appbackplane.sample.warehouse;

/** One SKU of the catalogue and its list price. */
public record Item(String sku, long priceCents) {}
