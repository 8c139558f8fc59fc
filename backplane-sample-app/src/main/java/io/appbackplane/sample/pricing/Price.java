package io.appbackplane.sample.pricing;

/** A re-priced SKU: its new price and how many times it has been re-priced. */
public record Price(String sku, long priceCents, long version) {}
