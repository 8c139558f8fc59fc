package io.appbackplane.spring.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;
import static org.awaitility.Awaitility.await;

import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.spring.LocalHttp;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * A request rejected by a full component becomes HTTP 503 with {@code Retry-After} and a
 * ProblemDetail body, over real HTTP — whether the controller calls a blocking endpoint, returns
 * the endpoint's future, or returns a future that fails with the rejection.
 */
@SpringBootTest(classes = RejectionWebTest.App.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "server.address=127.0.0.1",
        "backplane.components.gate.operation-limit=1",
        "backplane.web.retry-after=7s"})
class RejectionWebTest {

    @LocalServerPort
    int port;

    @Autowired
    Gate gate;

    @Autowired
    BackplaneRegistry registry;

    LocalHttp http;

    @BeforeEach
    void client() {
        http = new LocalHttp(port);
        gate.arm();
    }

    @AfterEach
    void drained() {
        gate.open();
        await().atMost(10, SECONDS).until(() -> registry.get("default").component("gate").orElseThrow().outstanding() == 0);
    }

    @ParameterizedTest(name = "first request /{0}, second request /{0}")
    @ValueSource(strings = {"blocking", "future", "composed", "failed", "joined"})
    void aSecondConcurrentRequestIsAnswered503WithRetryAfterAndAProblemDetail(String kind) throws Exception {
        CompletableFuture<HttpResponse<String>> first = http.getAsync("/" + kind + "/first");
        try {
            assertThat(gate.awaitEntered()).as("the first request reached the endpoint").isTrue();

            HttpResponse<String> second = http.get("/" + kind + "/second");

            assertThat(second.statusCode()).as(second.body()).isEqualTo(503);
            assertThat(second.headers().firstValue("Retry-After")).hasValue("7");
            assertThat(second.headers().firstValue("Content-Type")).get(STRING).startsWith("application/problem+json");
            JsonNode problem = LocalHttp.json(second);
            assertThat(problem.get("status").asInt()).isEqualTo(503);
            assertThat(problem.get("retryable").asBoolean()).isTrue();
            assertThat(problem.get("type").asString()).isEqualTo("urn:appbackplane:rejected");
            assertThat(problem.get("title").asString()).isEqualTo("Service busy");
            assertThat(problem.get("detail").asString()).isEqualTo("The service is busy. Retry after 7 seconds.");
            // by default nothing internal: no reason, backplane, component, limit or message
            assertThat(problem.propertyNames()).containsExactlyInAnyOrder("type", "title", "status", "detail", "instance", "retryable");
            assertThat(second.body()).doesNotContain("gate", "default", "COMPONENT_LIMIT", "limit");
            assertThat(LocalHttp.revealsJavaInternals(second.body())).as(second.body()).isFalse();
        } finally {
            gate.open();
        }
        HttpResponse<String> answered = first.get(10, SECONDS);
        assertThat(answered.statusCode()).isEqualTo(200);
        assertThat(answered.body()).isEqualTo("passed first");
    }

    @Test
    void aFailureThatIsNotARejectionIsNotMadeA503() throws Exception {
        gate.open();

        HttpResponse<String> response = http.get("/broken/x");

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.headers().firstValue("Retry-After")).isEmpty();
        assertThat(LocalHttp.revealsJavaInternals(response.body())).as(response.body()).isFalse();
    }

    /** A web application with one component that holds at most one request. */
    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {

        @Bean
        Gate gate() {
            return new Gate();
        }

        @Bean
        GateController gateController(Gate gate) {
            return new GateController(gate);
        }
    }

    /** Its endpoints block on a latch until the test opens it. */
    @AppComponent
    static class Gate {

        private volatile CountDownLatch entered = new CountDownLatch(1);
        private volatile CountDownLatch open = new CountDownLatch(0);

        void arm() {
            entered = new CountDownLatch(1);
            open = new CountDownLatch(1);
        }

        boolean awaitEntered() throws InterruptedException {
            return entered.await(10, SECONDS);
        }

        void open() {
            open.countDown();
        }

        @Endpoint
        String pass(@ObjectKey String id) throws InterruptedException {
            entered.countDown();
            if (!open.await(10, SECONDS)) {
                throw new IllegalStateException("the test never opened the gate");
            }
            return "passed " + id;
        }

        @Endpoint
        CompletableFuture<String> passLater(@ObjectKey String id) throws InterruptedException {
            return CompletableFuture.completedFuture(pass(id));
        }

        @Endpoint
        CompletableFuture<String> fail(@ObjectKey String id) {
            return CompletableFuture.failedFuture(new IllegalStateException("broken " + id));
        }
    }

    @RestController
    static class GateController {

        private final Gate gate;

        GateController(Gate gate) {
            this.gate = gate;
        }

        /** A synchronous endpoint call: the servlet thread waits; a rejection is thrown here. */
        @GetMapping("/blocking/{id}")
        String blocking(@PathVariable String id) throws InterruptedException {
            return gate.pass(id);
        }

        /** The endpoint's future, returned as an async MVC result. */
        @GetMapping("/future/{id}")
        CompletableFuture<String> future(@PathVariable String id) throws InterruptedException {
            return gate.passLater(id);
        }

        /** The endpoint called inside a composition: the rejection arrives wrapped in a CompletionException. */
        @GetMapping("/composed/{id}")
        CompletableFuture<String> composed(@PathVariable String id) {
            return CompletableFuture.completedFuture(id).thenCompose(key -> {
                try {
                    return gate.passLater(key);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return CompletableFuture.failedFuture(e);
                }
            });
        }

        /** A controller that turns the rejection into a failed future itself. */
        @GetMapping("/failed/{id}")
        CompletableFuture<String> failed(@PathVariable String id) throws InterruptedException {
            try {
                return gate.passLater(id);
            } catch (BackplaneRejectedException rejected) {
                return CompletableFuture.failedFuture(rejected);
            }
        }

        /** A synchronous controller joining a composed future: the rejection is thrown wrapped in a CompletionException. */
        @GetMapping("/joined/{id}")
        String joined(@PathVariable String id) {
            return composed(id).join();
        }

        @GetMapping("/broken/{id}")
        CompletableFuture<String> broken(@PathVariable String id) {
            return gate.fail(id);
        }
    }
}
