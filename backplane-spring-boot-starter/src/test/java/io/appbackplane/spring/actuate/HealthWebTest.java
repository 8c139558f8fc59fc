package io.appbackplane.spring.actuate;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.ComponentState;
import io.appbackplane.ComponentStateException;
import io.appbackplane.spring.LocalHttp;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.OnState;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.databind.JsonNode;

/**
 * {@code /actuator/health/backplane} over real HTTP: UP with per-backplane details once the
 * components are up; DOWN, naming the component, when a component failed to follow its backplane
 * into a new state.
 */
@SpringBootTest(classes = HealthWebTest.App.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "server.address=127.0.0.1",
        "management.endpoints.web.exposure.include=health",
        "management.endpoint.health.show-details=always",
        "backplane.instances.orders.threads=1"})
class HealthWebTest {

    @LocalServerPort
    int port;

    @Autowired
    BackplaneRegistry registry;

    LocalHttp http;

    @BeforeEach
    void client() {
        http = new LocalHttp(port);
    }

    @Test
    void isUpWithDetailsPerBackplaneAfterStart() {
        HttpResponse<String> response = http.get("/actuator/health/backplane");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode health = LocalHttp.json(response);
        assertThat(health.get("status").asString()).isEqualTo("UP");
        JsonNode details = health.get("details");
        assertThat(details.propertyNames()).containsExactly("default", "orders");
        for (String name : details.propertyNames()) {
            JsonNode backplane = details.get(name);
            assertThat(backplane.get("state").asString()).as(name).isEqualTo("PRIMARY");
            assertThat(backplane.get("readyObjects").asInt()).as(name).isZero();
            assertThat(backplane.get("waitingObjects").asInt()).as(name).isZero();
            assertThat(backplane.get("outstanding").asInt()).as(name).isZero();
            assertThat(backplane.has("stalled")).as(name).isFalse();
            assertThat(backplane.has("componentsNotInTargetState")).as(name).isFalse();
        }
        assertThat(LocalHttp.json(http.get("/actuator/health")).get("status").asString()).isEqualTo("UP");
    }

    @Test
    @DirtiesContext // leaves "fragile" behind in PRIMARY
    void isDownNamingTheComponentThatFailedToFollowARoleSwitch() {
        CompletableFuture<Void> switched = registry.get("default").moveTo(ComponentState.SECONDARY);
        assertThatThrownBy(() -> switched.get(10, SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ComponentStateException.class).hasMessageContaining("fragile");

        HttpResponse<String> response = http.get("/actuator/health/backplane");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        JsonNode health = LocalHttp.json(response);
        assertThat(health.get("status").asString()).isEqualTo("DOWN");
        JsonNode backplane = health.get("details").get("default");
        assertThat(backplane.get("state").asString()).isEqualTo("SECONDARY");
        assertThat(backplane.get("componentsNotInTargetState").get(0).asString())
                .isEqualTo("fragile is PRIMARY, backplane is SECONDARY");
        assertThat(health.get("details").get("orders").has("componentsNotInTargetState")).isFalse();
        assertThat(LocalHttp.revealsJavaInternals(response.body())).as(response.body()).isFalse();
        assertThat(http.get("/actuator/health").statusCode()).isEqualTo(503);
    }

    /** A web application with a component that cannot become SECONDARY, and one in another backplane. */
    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {

        @Bean
        Fragile fragile() {
            return new Fragile();
        }

        @Bean
        Steady steady() {
            return new Steady();
        }
    }

    @AppComponent
    static class Fragile {

        @OnState(ComponentState.SECONDARY)
        void refuseSecondary() {
            throw new IllegalStateException("cannot serve as a secondary");
        }

        @Endpoint
        CompletableFuture<String> ping() {
            return CompletableFuture.completedFuture("pong");
        }
    }

    @AppComponent(backplane = "orders")
    static class Steady {

        @Endpoint
        CompletableFuture<String> ping() {
            return CompletableFuture.completedFuture("pong");
        }
    }
}
