package io.appbackplane.sample.orders;

import java.util.List;

/**
 * An immutable snapshot of an order, as the API shows it.
 *
 * @param id the order id
 * @param item the SKU
 * @param quantity units ordered
 * @param amountCents the price charged
 * @param state the current state
 * @param history every state the order entered, in order
 * @param reason why it failed, or {@code null}
 */
public record OrderView(String id, String item, int quantity, long amountCents, OrderState state, List<OrderState> history,
        String reason) {

    public OrderView {
        history = List.copyOf(history);
    }

    /** Whether the state machine has finished. */
    public boolean finished() {
        return state == OrderState.CONFIRMED || state == OrderState.FAILED;
    }
}
