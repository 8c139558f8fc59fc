package io.appbackplane.sample.warehouse;

import io.appbackplane.ComponentState;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.annotation.OnState;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The backplane side of the warehouse: its endpoints call the external {@link WarehouseService}
 * and return its future, which the backplane awaits as a reply on the object for the order — so a
 * release or commit for an order never overtakes that order's reservation, and no worker waits.
 */
@AppComponent("warehouse")
public class Warehouse {

    private static final Logger log = LoggerFactory.getLogger(Warehouse.class);

    private final WarehouseService remote;
    private final Map<String, Item> items;

    public Warehouse(WarehouseService remote) {
        this.remote = remote;
        this.items = remote.catalogue().stream().collect(Collectors.toUnmodifiableMap(Item::sku, Function.identity()));
    }

    @OnState(ComponentState.PRIMARY)
    void up() {
        log.info("warehouse: {} SKUs in the catalogue", items.size());
    }

    /** Every SKU, in catalogue order (plain method: runs in the caller's thread). */
    public List<Item> catalogue() {
        return remote.catalogue();
    }

    /** The SKUs an order may name, for error messages: "a catalogue SKU, sku-0001..sku-1000" (plain method). */
    public String itemsAllowed() {
        List<Item> catalogue = remote.catalogue();
        return catalogue.isEmpty() ? "a catalogue SKU (the catalogue is empty)"
                : "a catalogue SKU, " + catalogue.get(0).sku() + ".." + catalogue.get(catalogue.size() - 1).sku();
    }

    /** The catalogue entry for {@code sku} (plain method: runs in the caller's thread). */
    public Optional<Item> item(String sku) {
        return Optional.ofNullable(items.get(sku));
    }

    /** Reserves stock for an order; urgent. */
    @Endpoint(priority = 0)
    public CompletableFuture<Reservation> reserve(@ObjectKey String orderId, String sku, int quantity) {
        return remote.reserve(orderId, sku, quantity);
    }

    /** Releases what an order holds (after its reservation, never before). */
    @Endpoint(priority = 1)
    public CompletableFuture<Boolean> release(@ObjectKey String orderId) {
        return remote.release(orderId);
    }

    /** Ships what an order holds; fire-and-forget. */
    @Endpoint(priority = 1)
    public void commit(@ObjectKey String orderId) {
        remote.commit(orderId);
    }
}
