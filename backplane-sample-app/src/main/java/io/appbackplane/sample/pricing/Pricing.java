package io.appbackplane.sample.pricing;

import io.appbackplane.sample.baseline.Baseline;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.springframework.context.annotation.Profile;

/**
 * Bulk re-pricing on the backplane: each call is a CPU-bound action of a few hundred microseconds
 * ({@link PriceList#reprice}) on the object for its SKU, at low priority (6 of 8). Enough of them
 * flood the backplane — which then still runs urgent orders first, keeps within its CPU limit and
 * rejects what exceeds pricing's operation limit instead of queueing it without bound.
 */
@AppComponent(value = "pricing", dependsOn = "warehouse")
@Profile(Baseline.NOT_BASELINE)
public class Pricing implements Repricer {

    /** Bulk work: below every interactive priority. */
    public static final int REPRICE_PRIORITY = 6;

    private final PriceList prices;

    public Pricing(PriceList prices) {
        this.prices = prices;
    }

    /** Re-prices one SKU from its list price and a (simulated, CPU-bound) demand model. */
    @Override
    @Endpoint(priority = REPRICE_PRIORITY)
    public CompletableFuture<Price> reprice(@ObjectKey String sku) {
        return CompletableFuture.completedFuture(prices.reprice(sku));
    }

    /** The latest price of {@code sku}, if it was re-priced (plain method: runs in the caller's thread). */
    public Optional<Price> price(String sku) {
        return prices.price(sku);
    }
}
