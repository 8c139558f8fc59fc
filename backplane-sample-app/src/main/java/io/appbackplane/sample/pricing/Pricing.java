package io.appbackplane.sample.pricing;

import io.appbackplane.sample.SampleProperties;
import io.appbackplane.sample.orders.UnknownItemException;
import io.appbackplane.sample.warehouse.Item;
import io.appbackplane.sample.warehouse.Warehouse;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bulk re-pricing: each call is a CPU-bound action of a few hundred microseconds on the object for
 * its SKU, at low priority (6 of 8). Enough of them flood the backplane — which then still runs
 * urgent orders first, keeps within its CPU limit and rejects what exceeds pricing's operation
 * limit instead of queueing it without bound.
 */
@AppComponent(value = "pricing", dependsOn = "warehouse")
public class Pricing {

    /** Bulk work: below every interactive priority. */
    public static final int REPRICE_PRIORITY = 6;

    private final Warehouse warehouse;
    private final long workNanos;
    private final Map<String, Price> prices = new ConcurrentHashMap<>();

    public Pricing(Warehouse warehouse, SampleProperties properties) {
        this.warehouse = warehouse;
        this.workNanos = properties.getPricing().getWork().toNanos();
    }

    /** Re-prices one SKU from its list price and a (simulated, CPU-bound) demand model. */
    @Endpoint(priority = REPRICE_PRIORITY)
    public CompletableFuture<Price> reprice(@ObjectKey String sku) {
        Item item = warehouse.item(sku).orElseThrow(() -> new UnknownItemException(sku, warehouse.itemsAllowed()));
        double demand = demandModel(item.sku().hashCode(), workNanos);
        Price previous = prices.get(sku); // only this SKU's object writes its entry
        Price price = new Price(sku, Math.round(item.priceCents() * (0.9 + 0.2 * demand)), previous == null ? 1 : previous.version() + 1);
        prices.put(sku, price);
        return CompletableFuture.completedFuture(price);
    }

    /** The latest price of {@code sku}, if it was re-priced (plain method: runs in the caller's thread). */
    public Optional<Price> price(String sku) {
        return Optional.ofNullable(prices.get(sku));
    }

    /** Burns about {@code nanos} of CPU computing a number in [0, 1). */
    static double demandModel(int seed, long nanos) {
        long deadline = System.nanoTime() + nanos;
        double x = (seed & 0xffff) / 65_536.0 + 0.5;
        do {
            for (int i = 0; i < 256; i++) {
                x = Math.sqrt(x * 3.7 + i) % 1.0 + 0.5;
            }
        } while (System.nanoTime() < deadline);
        return x - Math.floor(x);
    }
}
