package io.appbackplane.sample.orders;

import io.appbackplane.sample.baseline.Baseline;
import io.appbackplane.sample.warehouse.Item;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/** The backplane mode's {@link OrderDesk}: every call is an endpoint call of the {@link Orders} component. */
@Component
@Profile(Baseline.NOT_BASELINE)
class BackplaneOrderDesk implements OrderDesk {

    private final Orders orders;

    BackplaneOrderDesk(Orders orders) {
        this.orders = orders;
    }

    @Override
    public CompletableFuture<OrderView> place(String orderId, Item item, int quantity, CompletableFuture<OrderView> placed) {
        return orders.place(orderId, item, quantity, placed, null);
    }

    @Override
    public CompletableFuture<Optional<OrderView>> status(String orderId) {
        return orders.status(orderId);
    }
}
