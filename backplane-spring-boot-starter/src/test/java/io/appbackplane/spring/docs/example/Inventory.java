package io.appbackplane.spring.docs.example;

// docs:getting-started:spring-inventory BEGIN
import io.appbackplane.ComponentState;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.annotation.OnState;
import io.appbackplane.spring.annotation.ScheduledEndpoint;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

@AppComponent                                            // component "inventory" of the backplane "default"
public class Inventory {

    private final Map<String, Integer> stock = new ConcurrentHashMap<>();

    @OnState(ComponentState.INITIALIZING)                // runs before any component that depends on it starts
    void load() {
        stock.put("apple", 10);
    }

    @Endpoint(priority = 1)                              // runs on the object for the sku: one at a time per sku
    public CompletableFuture<Boolean> reserve(@ObjectKey String sku, int quantity) {
        int left = stock.getOrDefault(sku, 0);
        if (left < quantity) {
            return CompletableFuture.completedFuture(false);
        }
        stock.put(sku, left - quantity);
        return CompletableFuture.completedFuture(true);
    }

    public int inStock(String sku) {                     // not an endpoint: runs in the caller's thread
        return stock.getOrDefault(sku, 0);
    }

    @ScheduledEndpoint(fixedRate = "10s", priority = 3)  // a timer action on the component's own object
    void report() {
        System.out.println("apples in stock: " + inStock("apple"));
    }
}
// docs:getting-started:spring-inventory END
