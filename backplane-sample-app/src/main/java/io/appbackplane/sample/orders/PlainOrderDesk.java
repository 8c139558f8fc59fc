package io.appbackplane.sample.orders;

import io.appbackplane.sample.baseline.Baseline;
import io.appbackplane.sample.payments.PaymentService;
import io.appbackplane.sample.warehouse.Item;
import io.appbackplane.sample.warehouse.Reservation;
import io.appbackplane.sample.warehouse.WarehouseService;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.context.annotation.Profile;
import org.springframework.scheduling.annotation.Async;
import org.springframework.stereotype.Component;

/**
 * The baseline mode's {@link OrderDesk}: plain Spring, as a team without the backplane would write
 * it. Placing an order is one {@code @Async} method on Boot's task executor that runs all the
 * steps, waiting for the warehouse and the payment service with a timeout (a platform thread held
 * meanwhile, or a virtual one in {@code baseline-virtual}); urgent orders and bulk re-pricing share
 * that executor's queue, first come first served. The steps and their failures are those of {@link
 * Orders}.
 */
@Component
@Profile(Baseline.PROFILE)
class PlainOrderDesk implements OrderDesk {

    private final OrderBook book;
    private final WarehouseService warehouse;
    private final PaymentService payments;

    PlainOrderDesk(OrderBook book, WarehouseService warehouse, PaymentService payments) {
        this.book = book;
        this.warehouse = warehouse;
        this.payments = payments;
    }

    @Async
    @Override
    public CompletableFuture<OrderView> place(String orderId, Item item, int quantity, CompletableFuture<OrderView> placed) {
        Order order = book.open(orderId, item, quantity);
        placed.complete(order.view());
        CompletableFuture<Reservation> reservation = warehouse.reserve(order.id(), order.item(), order.quantity());
        Throwable failure = await(reservation);
        if (failure != null) {
            order.fail(book.why("warehouse", failure));
            if (failure instanceof TimeoutException) {
                release(order, reservation); // it may still reserve after the timeout
            }
            return CompletableFuture.completedFuture(order.view());
        }
        order.enter(OrderState.RESERVED);
        failure = await(payments.charge(order.id(), order.amountCents()));
        if (failure != null) {
            order.fail(book.why("payments", failure));
            release(order, reservation);
            return CompletableFuture.completedFuture(order.view());
        }
        order.enter(OrderState.PAID);
        warehouse.commit(order.id());
        order.enter(OrderState.CONFIRMED);
        return CompletableFuture.completedFuture(order.view());
    }

    /** Read in the caller's thread: the order's methods are synchronized. */
    @Override
    public CompletableFuture<Optional<OrderView>> status(String orderId) {
        return CompletableFuture.completedFuture(book.find(orderId).map(Order::view));
    }

    /** Waits for a reply for at most the reply timeout; returns why it failed, or null. */
    private Throwable await(Future<?> reply) {
        try {
            reply.get(book.replyTimeout().toNanos(), TimeUnit.NANOSECONDS);
            return null;
        } catch (ExecutionException failed) {
            return failed.getCause();
        } catch (TimeoutException timedOut) {
            return timedOut;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return interrupted;
        }
    }

    /** Gives the stock back once the reservation has answered, so a release never overtakes it. */
    private void release(Order order, CompletableFuture<Reservation> reservation) {
        reservation.whenComplete((reserved, failure) -> warehouse.release(order.id()));
    }
}
