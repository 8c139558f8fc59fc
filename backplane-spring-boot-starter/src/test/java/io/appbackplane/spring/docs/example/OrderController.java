package io.appbackplane.spring.docs.example;

// docs:getting-started:spring-controller BEGIN
import java.util.concurrent.CompletableFuture;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
class OrderController {

    private final Orders orders;

    OrderController(Orders orders) {
        this.orders = orders;
    }

    @PostMapping("/orders/{id}")
    CompletableFuture<String> place(@PathVariable("id") String id, @RequestParam("sku") String sku) {
        return orders.place(id, sku);                    // a rejection is answered 503 with Retry-After
    }
}
// docs:getting-started:spring-controller END
