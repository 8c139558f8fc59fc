package io.appbackplane.spring.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.spring.LocalHttp;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
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
 * A blocking endpoint ({@code @Endpoint(blocking = true)}) whose body finds the offload threads busy
 * and the offload queue full is back pressure like any other rejection: HTTP 503 with {@code
 * Retry-After} and reason {@code OFFLOAD_LIMIT}, over real HTTP, not a 500.
 */
@SpringBootTest(classes = OffloadRejectionWebTest.App.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "server.address=127.0.0.1",
        "backplane.configs.default.offload-threads=1",
        "backplane.configs.default.offload-queue=0",
        "backplane.web.retry-after=3s",
        "backplane.web.include-details=true"})
class OffloadRejectionWebTest {

    @LocalServerPort
    int port;

    @Autowired
    Repository repository;

    @Autowired
    BackplaneRegistry registry;

    @Test
    void aBlockingEndpointWhoseOffloadIsFull_isAnswered503WithRetryAfter_andTheFirstCallStillCompletes() throws Exception {
        LocalHttp http = new LocalHttp(port);
        CompletableFuture<HttpResponse<String>> first = http.getAsync("/rows/a");
        HttpResponse<String> second;
        try {
            assertThat(repository.entered().await(10, SECONDS)).as("the first body holds the only offload thread").isTrue();

            second = http.get("/rows/b");
        } finally {
            repository.release().countDown();
        }

        assertThat(second.statusCode()).as(second.body()).isEqualTo(503);
        assertThat(second.headers().firstValue("Retry-After")).hasValue("3");
        JsonNode problem = LocalHttp.json(second);
        assertThat(problem.get("reason").asString()).isEqualTo("OFFLOAD_LIMIT");
        assertThat(problem.get("component").asString()).isEqualTo("repository");
        assertThat(problem.get("retryable").asBoolean()).isTrue();
        assertThat(problem.get("detail").asString()).contains("offload-threads and offload-queue");
        assertThat(LocalHttp.revealsJavaInternals(second.body())).as(second.body()).isFalse();
        assertThat(repository.bodies()).as("the rejected body never ran").isEqualTo(1);
        assertThat(registry.get("default").statistics().rejectionsByReason())
                .containsEntry(BackplaneRejectedException.Reason.OFFLOAD_LIMIT, 1L);

        HttpResponse<String> answered = first.get(10, SECONDS);
        assertThat(answered.statusCode()).isEqualTo(200);
        assertThat(answered.body()).isEqualTo("row a");
    }

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {

        @Bean
        Repository repository() {
            return new Repository();
        }

        @Bean
        RowController rowController(Repository repository) {
            return new RowController(repository);
        }
    }

    /** Its blocking body holds its offload thread until the test releases it. */
    @AppComponent
    static class Repository {

        private final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        private final AtomicInteger bodies = new AtomicInteger();

        // Accessors, not fields: the bean the test gets is the endpoint proxy (a subclass).
        CountDownLatch entered() {
            return entered;
        }

        CountDownLatch release() {
            return release;
        }

        int bodies() {
            return bodies.get();
        }

        @Endpoint(blocking = true)
        String load(@ObjectKey String id) throws InterruptedException {
            bodies.incrementAndGet();
            entered.countDown();
            if (!release.await(10, SECONDS)) {
                throw new IllegalStateException("the test never released the body");
            }
            return "row " + id;
        }
    }

    @RestController
    static class RowController {

        private final Repository repository;

        RowController(Repository repository) {
            this.repository = repository;
        }

        @GetMapping("/rows/{id}")
        String row(@PathVariable String id) throws InterruptedException {
            return repository.load(id);
        }
    }
}
