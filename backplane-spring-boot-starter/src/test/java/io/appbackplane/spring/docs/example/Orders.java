package io.appbackplane.spring.docs.example;

// docs:getting-started:spring-orders BEGIN
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.EventEndpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

@AppComponent(dependsOn = "inventory")                   // comes up after inventory, goes down before it
public class Orders {

    private final Inventory inventory;
    private final List<String> audit = new CopyOnWriteArrayList<>();

    public Orders(Inventory inventory) {
        this.inventory = inventory;
    }

    /** Returns at once; completes when the action and the reply it waits for have completed. */
    @Endpoint(priority = 1)
    public CompletableFuture<String> place(@ObjectKey String orderId, String sku) {
        // Another component's endpoint: the order waits for its reply without holding a worker.
        return inventory.reserve(sku, 1).thenApply(reserved -> reserved ? "placed " + orderId : "out of stock");
    }

    /** Blocks the caller until the action has run (never call it on a backplane worker). */
    @Endpoint(priority = 0)
    public String status(@ObjectKey String orderId) {
        return "order " + orderId + " is open";
    }

    /** Fire and forget: a failure is counted and logged. */
    @Endpoint(priority = 3)
    public void record(@ObjectKey String orderId, String event) {
        audit.add(orderId + ": " + event);
    }

    /** Every PriceChanged published in the application context, as an action on the component's object. */
    @EventEndpoint(priority = 2)
    void onPriceChanged(PriceChanged event) {
        audit.add("price of " + event.sku() + " is now " + event.cents());
    }

    public List<String> audit() {
        return audit;
    }

    public record PriceChanged(String sku, int cents) {}
}
// docs:getting-started:spring-orders END
