package io.appbackplane.sample.orders;

import io.appbackplane.ActionContext;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.ReplyTimeoutException;
import io.appbackplane.sample.baseline.Baseline;
import io.appbackplane.sample.payments.Payments;
import io.appbackplane.sample.payments.Receipt;
import io.appbackplane.sample.warehouse.Item;
import io.appbackplane.sample.warehouse.Reservation;
import io.appbackplane.sample.warehouse.Warehouse;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Profile;

/**
 * Orders: one state machine per order, on the backplane object for the order id. Placing an order
 * runs PLACED, asks the warehouse to reserve stock and <em>waits for the reply</em> (with a timeout)
 * without holding a worker, then RESERVED, charges the payment service the same way, then PAID and
 * CONFIRMED — or FAILED at the step that went wrong. Every step is an action on the order's
 * object, so the steps of one order run one at a time, in order; different orders run in parallel.
 *
 * <p>Placing is an annotated {@link Endpoint} that takes the running action's {@link ActionContext}
 * (callers pass {@code null}) to await each reply with a timeout ({@link
 * ActionContext#awaitReply(java.util.concurrent.CompletionStage, Duration, io.appbackplane.ReplyHandler)}).
 */
@AppComponent(value = "orders", dependsOn = {"warehouse", "payments"})
@Profile(Baseline.NOT_BASELINE)
public class Orders {

    /** Placing an order: the most urgent work of the desk. */
    public static final int PLACE_PRIORITY = 0;

    private static final Logger log = LoggerFactory.getLogger(Orders.class);

    private final Warehouse warehouse;
    private final Payments payments;
    private final OrderBook book;
    private final Duration replyTimeout;

    public Orders(Warehouse warehouse, Payments payments, OrderBook book) {
        this.warehouse = warehouse;
        this.payments = payments;
        this.book = book;
        this.replyTimeout = book.replyTimeout();
    }

    /**
     * The catalogue item for {@code sku} (plain method: runs in the caller's thread).
     *
     * @throws UnknownItemException if {@code sku} is not in the catalogue
     */
    public Item item(String sku) {
        return book.item(sku);
    }

    /** A new, unique order id, the key of the order's object (plain method). */
    public String newOrderId() {
        return book.newOrderId();
    }

    /**
     * Places an order; returns at once (dispatched in the caller's thread, on the object for {@code
     * orderId}). The result completes with the final view (CONFIRMED or FAILED); {@code placed}
     * completes as soon as it is PLACED. Pass {@code null} for {@code context}: the backplane
     * supplies it.
     *
     * @throws BackplaneRejectedException if the orders component is at its operation limit
     */
    @Endpoint(priority = PLACE_PRIORITY)
    public CompletableFuture<OrderView> place(@ObjectKey String orderId, Item item, int quantity,
            CompletableFuture<OrderView> placed, ActionContext context) {
        Order order = book.open(orderId, item, quantity);
        placed.complete(order.view());
        CompletableFuture<Reservation> reservation;
        try {
            reservation = warehouse.reserve(order.id(), order.item(), order.quantity());
        } catch (BackplaneRejectedException busy) {
            order.fail("warehouse busy: " + busy.getMessage());
            throw busy;
        }
        context.awaitReply(reservation, replyTimeout, (ctx, reserved, failure) -> reserved(ctx, order, failure));
        return null; // the call completes with the reply handlers' result
    }

    /** The order as it is once every step queued before this call has run; empty if unknown. */
    @Endpoint(priority = 1)
    public CompletableFuture<Optional<OrderView>> status(@ObjectKey String orderId) {
        return CompletableFuture.completedFuture(book.find(orderId).map(Order::view));
    }

    // ---- the rest of the state machine; every method below runs on the order's object ----

    private OrderView reserved(ActionContext context, Order order, Throwable failure) {
        if (failure != null) {
            order.fail(book.why("warehouse", failure));
            if (failure instanceof ReplyTimeoutException) {
                releaseQuietly(order); // it may still reserve after the timeout
            }
            return order.view();
        }
        order.enter(OrderState.RESERVED);
        CompletableFuture<Receipt> charge;
        try {
            charge = payments.charge(order.id(), order.amountCents());
        } catch (BackplaneRejectedException busy) {
            order.fail("payments busy: " + busy.getMessage());
            releaseQuietly(order);
            throw busy;
        }
        return context.awaitReply(charge, replyTimeout, (ctx, receipt, chargeFailure) -> paid(order, chargeFailure));
    }

    private OrderView paid(Order order, Throwable failure) {
        if (failure != null) {
            order.fail(book.why("payments", failure));
            releaseQuietly(order);
            return order.view();
        }
        order.enter(OrderState.PAID);
        try {
            warehouse.commit(order.id());
        } catch (BackplaneRejectedException busy) {
            log.warn("order {}: warehouse too busy to ship now ({})", order.id(), busy.getMessage());
        }
        order.enter(OrderState.CONFIRMED);
        return order.view();
    }

    private void releaseQuietly(Order order) {
        try {
            warehouse.release(order.id()); // after the reservation: same key, same object, in order
        } catch (BackplaneRejectedException busy) {
            log.warn("order {}: warehouse too busy to release its stock ({})", order.id(), busy.getMessage());
        }
    }
}
