package io.appbackplane.sample;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.sample.warehouse.WarehouseService;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.test.context.ActiveProfiles;
import tools.jackson.databind.JsonNode;

/**
 * The {@code baseline} profile over real HTTP: the same order desk with no backplane at all, its
 * orders and re-pricings run by {@code @Async} methods on the task executor Spring Boot configures,
 * and the same meters as the backplane mode.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "sample.warehouse.initial-stock=100",
        "sample.payments.limit-cents=100000"})
@ActiveProfiles({"test", "baseline"})
class BaselineModeTest {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    ApplicationContext context;

    @Autowired
    MeterRegistry meters;

    @Autowired
    WarehouseService warehouse;

    Http http;

    @BeforeEach
    void client() {
        http = new Http(port, managementPort);
    }

    @Test
    void noBackplaneIsCreated_andTheOrderApiRunsOnBootsTaskExecutor() {
        assertThat(context.getBeanNamesForType(io.appbackplane.spring.autoconfigure.BackplaneRegistry.class)).isEmpty();
        assertThat(context.getBeanNamesForAnnotation(io.appbackplane.spring.annotation.AppComponent.class)).isEmpty();
        ThreadPoolTaskExecutor executor = context.getBean("applicationTaskExecutor", ThreadPoolTaskExecutor.class);
        long before = executor.getThreadPoolExecutor().getTaskCount();

        HttpResponse<String> placed = http.post("/orders", Http.order("sku-0001", 2));

        assertThat(placed.statusCode()).as(placed.body()).isEqualTo(200);
        JsonNode order = Http.json(placed);
        assertThat(history(order)).containsExactly("PLACED", "RESERVED", "PAID", "CONFIRMED");
        assertThat(executor.getThreadPoolExecutor().getTaskCount()).as("the order ran as an @Async task").isGreaterThan(before);
        HttpResponse<String> read = http.get("/orders/" + order.get("id").asString());
        assertThat(history(Http.json(read))).containsExactly("PLACED", "RESERVED", "PAID", "CONFIRMED");
        assertThat(http.get("/actuator/backplane").statusCode()).as("no backplane endpoint").isEqualTo(404);
    }

    @Test
    void aFailedStepFailsTheOrderAsOnTheBackplane_andGivesItsStockBack() {
        HttpResponse<String> declined = http.post("/orders", Http.order("sku-0500", 20)); // 20 x 100.00, above the payment limit of 1000.00
        JsonNode order = Http.json(declined);
        assertThat(history(order)).containsExactly("PLACED", "RESERVED", "FAILED");
        assertThat(order.get("reason").asString()).startsWith("payment declined");
        await().atMost(10, SECONDS).untilAsserted(() -> assertThat(warehouse.stock("sku-0500")).isEqualTo(100));

        JsonNode tooMany = Http.json(http.post("/orders", Http.order("sku-0501", 101))); // 100 in stock
        assertThat(history(tooMany)).containsExactly("PLACED", "FAILED");
        assertThat(tooMany.get("reason").asString()).startsWith("out of stock");
    }

    @Test
    void aPricingRunRepricesEveryItem_andTheBulkMeterCountsThem() {
        double before = meters.counter("sample.pricing.repriced").count();
        HttpResponse<String> started = http.post("/pricing/runs?items=40&inFlight=8", "");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        String run = started.headers().firstValue("Location").orElseThrow();

        await().atMost(30, SECONDS).until(() -> Http.json(http.get(run)).get("status").asString().equals("DONE"));
        assertThat(Http.json(http.get(run)).get("completed").asLong()).isEqualTo(40);
        assertThat(meters.counter("sample.pricing.repriced").count() - before).isEqualTo(40);
        JsonNode meter = Http.json(http.get("/actuator/metrics/sample.pricing.repriced"));
        assertThat(meter.get("measurements").get(0).get("value").asDouble()).isGreaterThanOrEqualTo(40);
    }

    private static List<String> history(JsonNode order) {
        List<String> states = new ArrayList<>();
        order.get("history").forEach(state -> states.add(state.asString()));
        return states;
    }
}
