package io.appbackplane.sample.pricing;

import io.appbackplane.sample.SampleProperties;
import io.appbackplane.sample.orders.UnknownItemException;
import io.appbackplane.sample.warehouse.Item;
import io.appbackplane.sample.warehouse.WarehouseService;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * The prices and the re-pricing computation, whichever mode schedules it: a CPU-bound demand model
 * of a few hundred microseconds per SKU, then the SKU's new price and version. Counts every
 * re-pricing in {@value #REPRICED}, the bulk throughput both modes report alike. Thread-safe: two
 * re-pricings of one SKU at once (possible in the baseline mode) both count in its version.
 */
@Component
public class PriceList {

    /** Re-pricings completed (a counter): the bulk throughput. */
    public static final String REPRICED = "sample.pricing.repriced";

    private final WarehouseService warehouse;
    private final long workNanos;
    private final Map<String, Price> prices = new ConcurrentHashMap<>();
    private final Counter repriced;

    public PriceList(WarehouseService warehouse, SampleProperties properties, MeterRegistry registry) {
        this.warehouse = warehouse;
        this.workNanos = properties.getPricing().getWork().toNanos();
        this.repriced = Counter.builder(REPRICED).description("Bulk re-pricings completed").register(registry);
    }

    /**
     * Re-prices one SKU from its list price and a (simulated, CPU-bound) demand model, in the
     * caller's thread.
     *
     * @throws UnknownItemException if {@code sku} is not in the catalogue
     */
    public Price reprice(String sku) {
        Item item = warehouse.item(sku).orElseThrow(() -> new UnknownItemException(sku, warehouse.itemsAllowed()));
        double demand = demandModel(item.sku().hashCode(), workNanos);
        long priceCents = Math.round(item.priceCents() * (0.9 + 0.2 * demand));
        Price price = prices.compute(sku, (key, previous) -> new Price(key, priceCents, previous == null ? 1 : previous.version() + 1));
        repriced.increment();
        return price;
    }

    /** The latest price of {@code sku}, if it was re-priced. */
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
