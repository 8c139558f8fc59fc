package io.appbackplane.sample;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.sample.warehouse.WarehouseService;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import tools.jackson.databind.JsonNode;

/** Orders over real HTTP: every order's steps run in order, failures stop at the right step, errors are ProblemDetails. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "sample.warehouse.initial-stock=100",
        "sample.payments.limit-cents=100000"})
@ActiveProfiles("test")
class OrderFlowTest {

    private static final List<String> CONFIRMED = List.of("PLACED", "RESERVED", "PAID", "CONFIRMED");

    @LocalServerPort
    int port;

    @Autowired
    WarehouseService warehouse;

    Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    @Test
    void aPlacedOrderRunsPlacedReservedPaidConfirmedInOrder() {
        HttpResponse<String> placed = http.post("/orders", Http.order("sku-0001", 2));

        assertThat(placed.statusCode()).as(placed.body()).isEqualTo(200);
        JsonNode order = Http.json(placed);
        assertThat(order.get("state").asString()).isEqualTo("CONFIRMED");
        assertThat(history(order)).containsExactlyElementsOf(CONFIRMED);
        assertThat(placed.headers().firstValue("Location")).hasValue("/orders/" + order.get("id").asString());

        HttpResponse<String> read = http.get("/orders/" + order.get("id").asString());
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(history(Http.json(read))).containsExactlyElementsOf(CONFIRMED);
    }

    @Test
    void manyConcurrentOrdersEachRunTheirOwnStepsInOrder() {
        List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            responses.add(http.postAsync("/orders", Http.order(String.format("sku-%04d", 10 + i % 20), 1)));
        }
        Set<String> ids = new HashSet<>();
        for (CompletableFuture<HttpResponse<String>> response : responses) {
            HttpResponse<String> answered = response.orTimeout(20, SECONDS).join();
            assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
            JsonNode order = Http.json(answered);
            assertThat(history(order)).as(order.toString()).containsExactlyElementsOf(CONFIRMED);
            ids.add(order.get("id").asString());
        }
        assertThat(ids).hasSize(60);
    }

    @Test
    void aReadQueuedBehindAnOrderInFlightSeesAllItsSteps() {
        HttpResponse<String> accepted = http.post("/orders?wait=false", Http.order("sku-0002", 1));

        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        JsonNode placed = Http.json(accepted);
        assertThat(placed.get("state").asString()).isEqualTo("PLACED");
        assertThat(history(placed)).containsExactly("PLACED");

        // The read is an action on the same object: it runs after the steps queued before it.
        HttpResponse<String> read = http.get(accepted.headers().firstValue("Location").orElseThrow());
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(history(Http.json(read))).containsExactlyElementsOf(CONFIRMED);
    }

    @Test
    void anOrderBeyondTheStockFailsRightAfterPlaced() {
        HttpResponse<String> placed = http.post("/orders", Http.order("sku-0003", 101));

        assertThat(placed.statusCode()).isEqualTo(200);
        JsonNode order = Http.json(placed);
        assertThat(history(order)).containsExactly("PLACED", "FAILED");
        assertThat(order.get("reason").asString()).contains("out of stock");
        assertThat(warehouse.stock("sku-0003")).isEqualTo(100);
    }

    @Test
    void aDeclinedPaymentFailsTheOrderAndGivesTheStockBack() {
        HttpResponse<String> placed = http.post("/orders", Http.order("sku-0004", 50)); // above the payment limit

        assertThat(placed.statusCode()).isEqualTo(200);
        JsonNode order = Http.json(placed);
        assertThat(history(order)).containsExactly("PLACED", "RESERVED", "FAILED");
        assertThat(order.get("reason").asString()).contains("payment declined");
        await().atMost(10, SECONDS).until(() -> warehouse.stock("sku-0004") == 100);
    }

    @Test
    void badRequestsAndUnknownOrdersAnswerProblemDetails() {
        HttpResponse<String> unknownItem = http.post("/orders", Http.order("no-such-sku", 1));
        assertThat(unknownItem.statusCode()).isEqualTo(400);
        assertThat(unknownItem.headers().firstValue("Content-Type")).get().asString().startsWith("application/problem+json");
        assertThat(Http.json(unknownItem).get("detail").asString()).contains("no-such-sku");

        HttpResponse<String> badQuantity = http.post("/orders", Http.order("sku-0001", 0));
        assertThat(badQuantity.statusCode()).isEqualTo(400);
        assertThat(badQuantity.headers().firstValue("Content-Type")).get().asString().startsWith("application/problem+json");

        HttpResponse<String> unknownOrder = http.get("/orders/order-999999");
        assertThat(unknownOrder.statusCode()).isEqualTo(404);
        assertThat(Http.json(unknownOrder).get("status").asInt()).isEqualTo(404);
    }

    private static List<String> history(JsonNode order) {
        List<String> history = new ArrayList<>();
        order.get("history").forEach(state -> history.add(state.asString()));
        return history;
    }
}
