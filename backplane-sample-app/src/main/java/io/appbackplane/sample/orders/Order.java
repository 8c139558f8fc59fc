package io.appbackplane.sample.orders;

import java.util.ArrayList;
import java.util.List;

/**
 * One order's mutable state. Its steps run one at a time: on the backplane object for the order id
 * (the backplane mode), or on the one thread that runs the whole order (the baseline mode). Its
 * methods are synchronized because in the baseline mode a status read comes from another thread;
 * on the backplane the lock is never contended.
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

    synchronized OrderState state() {
        return history.isEmpty() ? null : history.get(history.size() - 1);
    }

    synchronized void enter(OrderState next) {
        history.add(next);
    }

    synchronized void fail(String why) {
        reason = why;
        history.add(OrderState.FAILED);
    }

    synchronized OrderView view() {
        return new OrderView(id, item, quantity, amountCents, state(), history, reason);
    }
}
