package io.appbackplane.sample.orders;

import java.util.ArrayList;
import java.util.List;

/**
 * One order's mutable state. Confined to the backplane object for the order id: only actions on
 * that object read or change it, one at a time, so it needs no locking.
 */
final class Order {

    private final String id;
    private final String item;
    private final int quantity;
    private final long amountCents;
    private final List<OrderState> history = new ArrayList<>();
    private String reason;

    Order(String id, String item, int quantity, long amountCents) {
        this.id = id;
        this.item = item;
        this.quantity = quantity;
        this.amountCents = amountCents;
    }

    String id() {
        return id;
    }

    String item() {
        return item;
    }

    int quantity() {
        return quantity;
    }

    long amountCents() {
        return amountCents;
    }

    OrderState state() {
        return history.isEmpty() ? null : history.get(history.size() - 1);
    }

    void enter(OrderState next) {
        history.add(next);
    }

    void fail(String why) {
        reason = why;
        history.add(OrderState.FAILED);
    }

    OrderView view() {
        return new OrderView(id, item, quantity, amountCents, state(), history, reason);
    }
}
