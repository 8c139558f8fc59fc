package io.appbackplane.sample.pricing;

import java.util.concurrent.CompletableFuture;

/**
 * Re-prices one SKU, asynchronously: what {@link PricingRuns} calls for each item of a bulk run. On
 * the backplane it is the {@link Pricing} component (bulk priority, may be rejected at pricing's
 * operation limit); in the {@code baseline} profiles {@link PlainRepricer}, an {@code @Async} method
 * on Boot's task executor. Both compute the price with the same {@link PriceList}.
 */
public interface Repricer {

    /** Re-prices {@code sku}; the result completes with its new price, or fails with {@code UnknownItemException}. */
    CompletableFuture<Price> reprice(String sku);
}
