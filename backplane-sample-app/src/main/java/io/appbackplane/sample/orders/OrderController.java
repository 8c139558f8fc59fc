package io.appbackplane.sample.orders;

import java.net.URI;
import java.util.concurrent.CompletableFuture;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The urgent, interactive API. {@code POST /orders} answers 200 with the finished order (CONFIRMED
 * or FAILED), or with {@code ?wait=false} 202 as soon as it is PLACED; {@code GET /orders/{id}}
 * answers the order once its queued steps have run. No servlet thread waits: every answer is a
 * {@code CompletableFuture}. A full backplane answers 503 with {@code Retry-After} (the starter
 * maps the rejection).
 */
@RestController
@RequestMapping("/orders")
class OrderController {

    /** The largest quantity one order may ask for. */
    static final int MAX_QUANTITY = 1_000;

    private final Orders orders;

    OrderController(Orders orders) {
        this.orders = orders;
    }

    /** The body of {@code POST /orders}. */
    record PlaceOrderRequest(String item, Integer quantity) {}

    @PostMapping
    CompletableFuture<ResponseEntity<OrderView>> place(@RequestBody PlaceOrderRequest request,
            @RequestParam(defaultValue = "true") boolean wait) {
        if (request.item() == null || request.item().isBlank()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "'item' is required");
        }
        if (request.quantity() == null || request.quantity() < 1 || request.quantity() > MAX_QUANTITY) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "'quantity' must be 1.." + MAX_QUANTITY);
        }
        CompletableFuture<OrderView> placed = new CompletableFuture<>();
        CompletableFuture<OrderView> finished =
                orders.place(orders.newOrderId(), orders.item(request.item()), request.quantity(), placed, null);
        finished.whenComplete((view, failure) -> {
            if (failure != null) {
                placed.completeExceptionally(failure); // failed before it was even placed (e.g. shutting down)
            }
        });
        if (!wait) {
            return placed.thenApply(view -> ResponseEntity.accepted().location(location(view)).body(view));
        }
        return finished.thenApply(view -> ResponseEntity.ok().location(location(view)).body(view));
    }

    @GetMapping("/{id}")
    CompletableFuture<OrderView> get(@PathVariable String id) {
        return orders.status(id).thenApply(found -> found.orElseThrow(
                () -> new ResponseStatusException(HttpStatus.NOT_FOUND, "no order '" + id + "'")));
    }

    private static URI location(OrderView view) {
        return URI.create("/orders/" + view.id());
    }
}
