package io.appbackplane.sample.warehouse;

import io.appbackplane.ComponentState;
import io.appbackplane.sample.baseline.Baseline;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.annotation.OnState;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Profile;

/**
 * The backplane side of the warehouse: its endpoints call the external {@link WarehouseService}
 * and return its future, which the backplane awaits as a reply on the object for the order — so a
 * release or commit for an order never overtakes that order's reservation, and no worker waits.
 */
@AppComponent("warehouse")
@Profile(Baseline.NOT_BASELINE)
public class Warehouse {

    private static final Logger log = LoggerFactory.getLogger(Warehouse.class);

    private final WarehouseService remote;

    public Warehouse(WarehouseService remote) {
        this.remote = remote;
    }

    @OnState(ComponentState.PRIMARY)
    void up() {
        log.info("warehouse: {} SKUs in the catalogue", remote.catalogue().size());
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
