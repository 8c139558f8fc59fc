package io.appbackplane.sample.orders;

import io.appbackplane.sample.warehouse.Item;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What the order API calls to place and read orders: on the backplane ({@link BackplaneOrderDesk},
 * the default) or on plain Spring ({@link PlainOrderDesk}, the {@code baseline} profiles). Both run
 * the same steps, PLACED → RESERVED → PAID → CONFIRMED or FAILED, against the same simulated
 * services and the same {@link OrderBook}.
 */
public interface OrderDesk {

    /**
     * Places an order; returns at once. The result completes with the final view (CONFIRMED or
     * FAILED); {@code placed} completes as soon as it is PLACED.
     */
    CompletableFuture<OrderView> place(String orderId, Item item, int quantity, CompletableFuture<OrderView> placed);

    /** The order as it is now; empty if unknown (never placed, or no longer kept). */
    CompletableFuture<Optional<OrderView>> status(String orderId);
}
