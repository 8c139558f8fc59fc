package io.appbackplane.sample.orders;

import io.appbackplane.sample.web.Echo;
import io.appbackplane.sample.web.InvalidInputException;
import io.appbackplane.sample.web.RequestInputs;
import java.math.BigDecimal;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.server.ResponseStatusException;

/**
 * The urgent, interactive API. {@code POST /orders} answers 200 with the finished order (CONFIRMED
 * or FAILED), or with {@code ?wait=false} 202 as soon as it is PLACED; {@code GET /orders/{id}}
 * answers the order once its queued steps have run. No servlet thread waits: every answer is a
 * {@code CompletableFuture}. A full backplane answers 503 with {@code Retry-After} (the starter
 * maps the rejection). The work runs on the mode's {@link OrderDesk}: the backplane, or plain
 * Spring in the {@code baseline} profiles. Input it does not accept answers 400 with a
 * ProblemDetail naming the field and what it allows ({@link InvalidInputException}).
 */
@RestController
@RequestMapping("/orders")
class OrderController {

    /** The largest quantity one order may ask for. */
    static final int MAX_QUANTITY = 1_000;
    static final String QUANTITY_ALLOWED = "a whole number 1.." + MAX_QUANTITY;
    static final String ID_ALLOWED = "an order id as POST /orders returns it (order-<number>)";
    static final String WAIT_ALLOWED = "true or false";
    private static final Pattern ORDER_ID = Pattern.compile("order-[0-9]{1,19}");

    private final OrderDesk desk;
    private final OrderBook orders;

    OrderController(OrderDesk desk, OrderBook orders) {
        this.desk = desk;
        this.orders = orders;
    }

    /**
     * The body of {@code POST /orders}. The quantity is read as a decimal so that {@code 2.5} or
     * {@code 1e12} is refused with the field named, not rounded or overflowed by the JSON reader.
     */
    record PlaceOrderRequest(String item, BigDecimal quantity) {}

    @PostMapping
    CompletableFuture<ResponseEntity<OrderView>> place(@RequestBody PlaceOrderRequest request,
            @RequestParam(defaultValue = "true") boolean wait) {
        if (request.item() == null || request.item().isBlank()) {
            throw InvalidInputException.value("item", orders.itemsAllowed(), request.item());
        }
        int quantity = quantity(request.quantity());
        CompletableFuture<OrderView> placed = new CompletableFuture<>();
        CompletableFuture<OrderView> finished =
                desk.place(orders.newOrderId(), orders.item(request.item()), quantity, placed);
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
        if (!ORDER_ID.matcher(id).matches()) {
            throw InvalidInputException.value("id", ID_ALLOWED, id);
        }
        return desk.status(id).thenApply(found -> found.orElseThrow(
                () -> new ResponseStatusException(HttpStatus.NOT_FOUND, "no order " + Echo.quoted(id))));
    }

    /** A body the JSON reader could not bind: the field it names, or the body as a whole. */
    @ExceptionHandler(HttpMessageNotReadableException.class)
    @ResponseStatus(HttpStatus.BAD_REQUEST)
    ProblemDetail unreadable(HttpMessageNotReadableException failure, HttpServletRequest request) {
        InvalidInputException invalid = RequestInputs.field(failure)
                .map(field -> RequestInputs.invalidField(failure, field, allowed(field)))
                .orElseGet(() -> InvalidInputException.kind("body",
                        "a JSON object with 'item' (" + orders.itemsAllowed() + ") and 'quantity' (" + QUANTITY_ALLOWED + ")",
                        RequestInputs.bodyProblem(failure)));
        return invalid.problem(request);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    @ResponseStatus(HttpStatus.BAD_REQUEST)
    ProblemDetail mismatch(MethodArgumentTypeMismatchException failure, HttpServletRequest request) {
        return RequestInputs.invalidParameter(failure, allowed(failure.getName())).problem(request);
    }

    private String allowed(String field) {
        return switch (field) {
            case "item" -> orders.itemsAllowed();
            case "quantity" -> QUANTITY_ALLOWED;
            case "wait" -> WAIT_ALLOWED;
            case "id" -> ID_ALLOWED;
            default -> "absent (not a field of this request)";
        };
    }

    private static int quantity(BigDecimal quantity) {
        if (quantity == null || quantity.signum() <= 0 || quantity.compareTo(BigDecimal.valueOf(MAX_QUANTITY)) > 0
                || quantity.stripTrailingZeros().scale() > 0) {
            throw InvalidInputException.value("quantity", QUANTITY_ALLOWED, quantity == null ? null : quantity.toString());
        }
        return quantity.intValueExact();
    }

    private static URI location(OrderView view) {
        return URI.create("/orders/" + view.id());
    }
}
