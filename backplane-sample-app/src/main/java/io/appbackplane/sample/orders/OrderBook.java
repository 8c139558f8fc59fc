package io.appbackplane.sample.orders;

import io.appbackplane.sample.SampleProperties;
import io.appbackplane.sample.warehouse.Item;
import io.appbackplane.sample.warehouse.WarehouseService;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/**
 * The order desk's business rules that do not depend on how an order's steps are scheduled: order
 * ids, the catalogue an order may name, the orders kept for {@code GET /orders/{id}} (the newest
 * {@code sample.orders.retained}), and what a failed step says. Both {@link OrderDesk}s use it, so
 * the backplane and the baseline mode place the same orders. Thread-safe.
 */
@Component
public class OrderBook {

    private final WarehouseService warehouse;
    private final Duration replyTimeout;
    private final int retained;
    private final AtomicLong ids = new AtomicLong();
    private final Map<String, Order> orders = new ConcurrentHashMap<>();
    private final Queue<String> oldestFirst = new ConcurrentLinkedQueue<>();
    private final AtomicInteger kept = new AtomicInteger();

    public OrderBook(WarehouseService warehouse, SampleProperties properties) {
        this.warehouse = warehouse;
        this.replyTimeout = properties.getOrders().getReplyTimeout();
        this.retained = properties.getOrders().getRetained();
    }

    /**
     * The catalogue item for {@code sku}.
     *
     * @throws UnknownItemException if {@code sku} is not in the catalogue
     */
    public Item item(String sku) {
        return warehouse.item(sku).orElseThrow(() -> new UnknownItemException(sku, warehouse.itemsAllowed()));
    }

    /** The SKUs an order may name, for error messages. */
    public String itemsAllowed() {
        return warehouse.itemsAllowed();
    }

    /** A new, unique order id (on the backplane, the key of the order's object). */
    public String newOrderId() {
        return "order-" + ids.incrementAndGet();
    }

    /** How long an order waits for the warehouse or the payment service before it fails. */
    Duration replyTimeout() {
        return replyTimeout;
    }

    /** A new order, PLACED and kept for status reads. */
    Order open(String orderId, Item item, int quantity) {
        Order order = new Order(orderId, item.sku(), quantity, item.priceCents() * quantity);
        order.enter(OrderState.PLACED);
        remember(order);
        return order;
    }

    /** The order {@code orderId}, if it is still kept. */
    Optional<Order> find(String orderId) {
        return Optional.ofNullable(orders.get(orderId));
    }

    /** Why a call to {@code service} failed, as the order's reason says it. */
    String why(String service, Throwable failure) {
        Throwable cause = (failure instanceof CompletionException || failure instanceof ExecutionException)
                && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof TimeoutException) {
            return service + " did not answer within " + replyTimeout.toMillis() + " ms";
        }
        return cause.getMessage();
    }

    private void remember(Order order) {
        orders.put(order.id(), order);
        oldestFirst.add(order.id());
        if (kept.incrementAndGet() > retained) {
            String oldest = oldestFirst.poll();
            if (oldest != null) {
                orders.remove(oldest);
                kept.decrementAndGet();
            }
        }
    }
}
