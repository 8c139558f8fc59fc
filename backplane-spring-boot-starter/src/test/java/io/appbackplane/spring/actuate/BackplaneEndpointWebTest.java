package io.appbackplane.spring.actuate;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.LocalHttp;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.NestedTestConfiguration;
import org.springframework.test.context.NestedTestConfiguration.EnclosingConfiguration;
import tools.jackson.databind.JsonNode;

/**
 * The {@code backplane} Actuator endpoint over real HTTP on 127.0.0.1: what it shows, that writes
 * answer 405 until access is granted, and that a granted write is validated (400, nothing changed).
 */
class BackplaneEndpointWebTest {

    static final String ACTUATOR_JSON = "application/vnd.spring-boot.actuator.v3+json";

    /** Endpoint exposed with the default (read-only) access. */
    @Nested
    @NestedTestConfiguration(EnclosingConfiguration.OVERRIDE)
    @SpringBootTest(classes = App.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
            "server.address=127.0.0.1",
            "management.endpoints.web.exposure.include=backplane,health",
            "backplane.instances.orders.cpu-limit=500m",
            "backplane.instances.orders.priorities=3",
            "backplane.instances.orders.threads=2",
            "backplane.instances.orders.quotas=unlimited,10,5",
            "backplane.components.checkout.operation-limit=50"})
    class ReadOnlyByDefault {

        @LocalServerPort
        int port;

        @Autowired
        Checkout checkout;

        LocalHttp http;

        @BeforeEach
        void client() {
            http = new LocalHttp(port);
        }

        @Test
        void listsEveryBackplaneByName() {
            HttpResponse<String> response = http.get("/actuator/backplane");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).get(STRING).startsWith(ACTUATOR_JSON);
            JsonNode all = LocalHttp.json(response);
            assertThat(all.propertyNames()).containsExactly("default", "orders");
            assertThat(all.get("default").get("name").asString()).isEqualTo("default");
            assertThat(all.get("orders").get("policy").get("cpuLimit").asString()).isEqualTo("500m");
        }

        @Test
        void showsPolicyThreadsPrioritiesCpuAndComponentsOfOneBackplane() throws Exception {
            for (int i = 0; i < 3; i++) {
                assertThat(checkout.place("o-" + i).get(10, SECONDS)).isEqualTo("placed o-" + i);
            }

            // Counters are published when the action finishes, possibly just after the caller's future completes.
            JsonNode orders = await().atMost(10, SECONDS).until(
                    () -> LocalHttp.json(http.get("/actuator/backplane/orders")),
                    b -> endpoint(b, "checkout", "place").get("counts").get("completed").asInt() == 3);

            assertThat(orders.get("name").asString()).isEqualTo("orders");
            assertThat(orders.get("state").asString()).isEqualTo("PRIMARY");

            JsonNode policy = orders.get("policy");
            assertThat(policy.get("cpuLimit").asString()).isEqualTo("500m");
            assertThat(policy.get("priorities").asInt()).isEqualTo(3);
            assertThat(policy.get("threads").asInt()).isEqualTo(2);

            JsonNode threads = orders.get("threads");
            assertThat(threads.get("total").asInt()).isEqualTo(2);
            assertThat(threads.get("busy").asInt() + threads.get("idle").asInt()).isEqualTo(2);

            JsonNode priorities = orders.get("priorities");
            assertThat(priorities).hasSize(3);
            assertThat(priorities.get(0).get("quota").isNull()).as("priority 0 is unlimited").isTrue();
            assertThat(priorities.get(1).get("quota").asInt()).isEqualTo(10);
            assertThat(priorities.get(2).get("quota").asInt()).isEqualTo(5);
            for (int p = 0; p < 3; p++) {
                JsonNode priority = priorities.get(p);
                assertThat(priority.get("priority").asInt()).isEqualTo(p);
                // Charged this period: the calls plus the components' state transitions (priority 0),
                // unless a real tick reset it since; never more than a limited quota.
                int used = priority.get("usedThisPeriod").asInt();
                assertThat(used).isNotNegative();
                if (!priority.get("quota").isNull()) {
                    assertThat(used).isLessThanOrEqualTo(priority.get("quota").asInt());
                }
                assertThat(priority.get("readyDepth").asInt()).isZero();
            }
            assertThat(priorities.get(2).get("counts").get("completed").asLong()).isGreaterThanOrEqualTo(3);

            JsonNode cpu = orders.get("cpu");
            assertThat(cpu.get("limit").asString()).isEqualTo("500m");
            assertThat(cpu.get("budgetPerPeriodMs").asDouble()).isEqualTo(500.0);
            assertThat(cpu.get("usedThisPeriodMs").asDouble()).isGreaterThanOrEqualTo(0.0);

            List<String> names = new ArrayList<>();
            orders.get("components").forEach(c -> names.add(c.get("name").asString()));
            assertThat(names).containsExactly("orders", "inventory", "checkout");
            orders.get("components").forEach(c -> assertThat(c.get("state").asString()).as(names.toString()).isEqualTo("PRIMARY"));

            JsonNode component = component(orders, "checkout");
            assertThat(component.get("dependencies").get(0).asString()).isEqualTo("inventory");
            assertThat(component.get("outstanding").asInt()).isZero();
            assertThat(component.get("operationLimit").asInt()).isEqualTo(50);
            JsonNode place = endpoint(orders, "checkout", "place").get("counts");
            assertThat(place.get("submitted").asLong()).isEqualTo(3);
            assertThat(place.get("failed").asLong()).isZero();
            assertThat(place.get("rejected").asLong()).isZero();
            assertThat(endpoint(orders, "inventory", "reserve").get("counts").get("completed").asLong()).isEqualTo(3);
        }

        @Test
        void anUnknownBackplaneIsNotFound() {
            HttpResponse<String> response = http.get("/actuator/backplane/nope");

            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(LocalHttp.revealsJavaInternals(response.body())).as(response.body()).isFalse();
        }

        @Test
        void aWriteIsNotAllowedUntilAccessIsGranted() {
            HttpResponse<String> response = http.postJson("/actuator/backplane/orders", "{\"threads\":3}");

            assertThat(response.statusCode()).isEqualTo(405);
            assertThat(response.headers().firstValue("Allow")).get(STRING).contains("GET");
            assertThat(LocalHttp.revealsJavaInternals(response.body())).as(response.body()).isFalse();
            assertThat(LocalHttp.json(http.get("/actuator/backplane/orders")).get("policy").get("threads").asInt()).isEqualTo(2);
        }
    }

    /** Endpoint exposed with {@code management.endpoint.backplane.access=unrestricted}. */
    @Nested
    @NestedTestConfiguration(EnclosingConfiguration.OVERRIDE)
    @SpringBootTest(classes = App.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
            "server.address=127.0.0.1",
            "management.endpoints.web.exposure.include=backplane,health",
            "management.endpoint.backplane.access=unrestricted",
            "backplane.instances.orders.cpu-limit=500m",
            "backplane.instances.orders.priorities=3",
            "backplane.instances.orders.threads=2",
            "backplane.instances.orders.quotas=unlimited,10,5"})
    class WithAccessGranted {

        @LocalServerPort
        int port;

        LocalHttp http;

        @BeforeEach
        void client() {
            http = new LocalHttp(port);
        }

        @Test
        void aWriteChangesTheThreadsVisiblyInTheNextRead() {
            HttpResponse<String> response = http.postJson("/actuator/backplane/orders", "{\"threads\":3}");

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(LocalHttp.json(response).get("policy").get("threads").asInt()).isEqualTo(3);
            JsonNode orders = await().atMost(10, SECONDS).until(
                    () -> LocalHttp.json(http.get("/actuator/backplane/orders")),
                    b -> b.get("threads").get("total").asInt() == 3);
            assertThat(orders.get("policy").get("threads").asInt()).isEqualTo(3);

            assertThat(http.postJson("/actuator/backplane/orders", "{\"threads\":2}").statusCode()).isEqualTo(200);
            await().atMost(10, SECONDS).until(
                    () -> LocalHttp.json(http.get("/actuator/backplane/orders")).get("threads").get("total").asInt() == 2);
        }

        @Test
        void aWriteChangesAQuotaAndTheCpuLimit() {
            HttpResponse<String> response = http.postJson("/actuator/backplane/orders",
                    "{\"priority\":2,\"quota\":\"7\",\"cpuLimit\":\"1.5\"}");

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonNode orders = LocalHttp.json(http.get("/actuator/backplane/orders"));
            assertThat(orders.get("priorities").get(2).get("quota").asInt()).isEqualTo(7);
            assertThat(orders.get("policy").get("cpuLimit").asString()).isEqualTo("1500m");

            assertThat(http.postJson("/actuator/backplane/orders", "{\"priority\":2,\"quota\":\"5\",\"cpuLimit\":\"500m\"}")
                    .statusCode()).isEqualTo(200);
        }

        @ParameterizedTest
        @ValueSource(strings = {
                "{\"cpuLimit\":\"abc\"}",
                "{\"threads\":0}",
                "{\"threads\":\"many\"}",
                "{\"priority\":9,\"quota\":\"5\"}",
                "{\"priority\":1,\"quota\":\"-1\"}",
                "{\"priority\":1}",
                "{\"role\":\"boss\"}",
                "{\"threads\":3,\"cpuLimit\":\"abc\"}"})
        void anInvalidWriteIsABadRequestAndChangesNothing(String body) {
            JsonNode before = LocalHttp.json(http.get("/actuator/backplane/orders"));

            HttpResponse<String> response = http.postJson("/actuator/backplane/orders", body);

            assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
            assertThat(LocalHttp.revealsJavaInternals(response.body())).as(response.body()).isFalse();
            JsonNode after = LocalHttp.json(http.get("/actuator/backplane/orders"));
            assertThat(after.get("policy")).isEqualTo(before.get("policy"));
            assertThat(quotas(after)).isEqualTo(quotas(before));
            assertThat(after.get("state")).isEqualTo(before.get("state"));
        }

        @Test
        void aWriteToAnUnknownBackplaneIsABadRequestNotASuccess() {
            HttpResponse<String> response = http.postJson("/actuator/backplane/nope", "{\"threads\":3}");

            assertThat(response.statusCode()).as("not 204, which would claim success").isEqualTo(400);
            assertThat(LocalHttp.revealsJavaInternals(response.body())).as(response.body()).isFalse();
        }

        private List<String> quotas(JsonNode backplane) {
            List<String> quotas = new ArrayList<>();
            backplane.get("priorities").forEach(p -> quotas.add(p.get("quota").toString()));
            return quotas;
        }
    }

    static JsonNode component(JsonNode backplane, String name) {
        for (JsonNode component : backplane.get("components")) {
            if (component.get("name").asString().equals(name)) {
                return component;
            }
        }
        throw new AssertionError("no component " + name + " in " + backplane);
    }

    static JsonNode endpoint(JsonNode backplane, String component, String name) {
        for (JsonNode endpoint : component(backplane, component).get("endpoints")) {
            if (endpoint.get("name").asString().equals(name)) {
                return endpoint;
            }
        }
        throw new AssertionError("no endpoint " + component + "." + name + " in " + backplane);
    }

    /** A web application with two components in the backplane "orders". */
    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {

        @Bean
        Inventory inventory() {
            return new Inventory();
        }

        @Bean
        Checkout checkout(Inventory inventory) {
            return new Checkout(inventory);
        }
    }

    @AppComponent(backplane = "orders")
    static class Inventory {

        @Endpoint(priority = 1)
        CompletableFuture<Boolean> reserve(@ObjectKey String orderId) {
            return CompletableFuture.completedFuture(Boolean.TRUE);
        }
    }

    @AppComponent(backplane = "orders", dependsOn = "inventory")
    static class Checkout {

        private final Inventory inventory;

        Checkout(Inventory inventory) {
            this.inventory = inventory;
        }

        /** Reserves through the inventory component, then answers: a reply awaited without holding a worker. */
        @Endpoint(priority = 2)
        CompletableFuture<String> place(@ObjectKey String orderId) {
            return inventory.reserve(orderId).thenApply(ok -> "placed " + orderId);
        }
    }
}
