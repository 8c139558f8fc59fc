package io.appbackplane.sample;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import tools.jackson.databind.JsonNode;

/** Tiny operation limits: overload becomes 503 with Retry-After (or a run that backs off), and the app stays healthy. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "backplane.components.orders.operation-limit=3",
        "backplane.components.pricing.operation-limit=5",
        "backplane.web.retry-after=2s",
        "sample.warehouse.delay=100ms",
        "sample.pricing.backoff=5ms"})
@ActiveProfiles("test")
class OverloadTest {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    BackplaneRegistry backplanes;

    Http http;

    @BeforeEach
    void client() {
        http = new Http(port, managementPort);
    }

    @Test
    void aBurstOfOrdersBeyondTheLimitGets503WithRetryAfterWhileTheRestAreServed() {
        List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            burst.add(http.postAsync("/orders", Http.order("sku-0001", 1)));
        }
        List<HttpResponse<String>> answers = burst.stream().map(f -> f.orTimeout(20, SECONDS).join()).toList();

        assertThat(answers).extracting(HttpResponse::statusCode).containsOnly(200, 503).contains(200, 503);
        HttpResponse<String> rejected = answers.stream().filter(r -> r.statusCode() == 503).findFirst().orElseThrow();
        assertThat(rejected.headers().firstValue("Retry-After")).hasValue("2");
        assertThat(rejected.headers().firstValue("Content-Type")).get().asString().startsWith("application/problem+json");
        JsonNode problem = Http.json(rejected);
        assertThat(problem.get("detail").asString()).isEqualTo("The service is busy. Retry after 2 seconds.");
        assertThat(problem.has("component")).as("no internal names for anonymous clients").isFalse();

        await().atMost(10, SECONDS).until(() -> backplanes.get("default").component("orders").orElseThrow().outstanding() == 0);
        HttpResponse<String> health = http.get("/actuator/health");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(Http.json(health).get("status").asString()).isEqualTo("UP");
        HttpResponse<String> later = http.post("/orders", Http.order("sku-0002", 1));
        assertThat(later.statusCode()).as("served again once the burst is over").isEqualTo(200);
    }

    @Test
    void aBulkRunBeyondPricingsLimitBacksOffAndStillFinishesEveryItem() {
        HttpResponse<String> started = http.post("/pricing/runs?items=400&inFlight=50", "");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        String location = started.headers().firstValue("Location").orElseThrow();

        await().atMost(30, SECONDS).until(() -> "DONE".equals(Http.json(http.get(location)).get("status").asString()));
        JsonNode run = Http.json(http.get(location));
        assertThat(run.get("completed").asLong()).isEqualTo(400);
        assertThat(run.get("rejected").asLong()).as("the window (50) is above pricing's limit (5)").isPositive();

        JsonNode pricing = component(Http.json(http.get("/actuator/backplane")).get("default"), "pricing");
        assertThat(pricing.get("operationLimit").asInt()).isEqualTo(5);
        assertThat(pricing.get("counts").get("rejected").asLong()).isPositive();
        assertThat(http.get("/actuator/health").statusCode()).isEqualTo(200);
    }

    static JsonNode component(JsonNode backplane, String name) {
        for (JsonNode component : backplane.get("components")) {
            if (component.get("name").asString().equals(name)) {
                return component;
            }
        }
        throw new AssertionError("no component " + name + " in " + backplane);
    }
}
