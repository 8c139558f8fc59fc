package io.appbackplane.sample.intake;

import io.appbackplane.kafka.KafkaEndpoint;
import io.appbackplane.sample.orders.OrderView;
import io.appbackplane.sample.orders.Orders;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.ObjectKey;
import java.util.concurrent.CompletableFuture;
import org.springframework.context.annotation.Profile;

/**
 * The {@code kafka} profile: orders also arrive on a topic. Each record ({@code key} = the client's
 * order reference, {@code value} = {@code "sku,quantity"}) becomes an action on the object for its
 * reference, so records of one reference run in order, others in parallel, on whichever instance
 * owns the record's partition. The record counts as done — and its offset may be committed — once
 * the order has finished (CONFIRMED or FAILED); a malformed record goes to {@code orders-in-dlt}.
 */
@AppComponent(value = "intake", dependsOn = "orders")
@Profile("kafka")
public class OrderIntake {

    private final Orders orders;

    public OrderIntake(Orders orders) {
        this.orders = orders;
    }

    @KafkaEndpoint(topics = "${sample.kafka.topic}", priority = 2)
    public CompletableFuture<OrderView> onOrder(@ObjectKey String reference, String payload) {
        String[] parts = payload.split(",");
        if (parts.length != 2) {
            throw new IllegalArgumentException("order record '" + reference + "' has payload '" + payload
                    + "'; expected 'sku,quantity'");
        }
        return orders.place(orders.newOrderId(), orders.item(parts[0].trim()), Integer.parseInt(parts[1].trim()),
                new CompletableFuture<>(), null);
    }
}
