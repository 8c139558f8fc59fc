package io.appbackplane.spring.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.LocalHttp;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import tools.jackson.databind.JsonNode;

/**
 * A WebFlux application (Reactor Netty on 127.0.0.1) whose controllers return the {@code Mono} and
 * {@code Flux} of {@code @Endpoint} methods: nothing blocks, the values arrive over HTTP, and a
 * rejection is answered 503 with {@code Retry-After}.
 */
@SpringBootTest(classes = ReactiveWebTest.App.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "spring.main.web-application-type=reactive",
        "server.address=127.0.0.1",
        "backplane.components.replies.operation-limit=1",
        "backplane.web.retry-after=3s",
        "backplane.web.include-details=true"})
class ReactiveWebTest {

    @LocalServerPort
    int port;

    @Autowired
    Replies replies;

    @Autowired
    BackplaneRegistry registry;

    LocalHttp http;

    @BeforeEach
    void client() {
        http = new LocalHttp(port);
    }

    @AfterEach
    void drained() {
        replies.answerAll("done");
        await().atMost(10, SECONDS).until(() -> registry.get("default").component("replies").orElseThrow().outstanding() == 0);
    }

    @Test
    void aMonoEndpointReturnsAtOnceAndCompletesWithTheReplyWithoutHoldingAThread() throws Exception {
        // The Mono the method returns is not complete until the test answers: a caller that blocked
        // on it (the old behaviour for Publishers) would never get its Mono back.
        Mono<String> answer = CompletableFuture.supplyAsync(() -> replies.await("k-1")).get(10, SECONDS);
        await().atMost(10, SECONDS).until(() -> replies.waiting("k-1"));

        replies.answer("k-1", "pong");

        assertThat(answer.block(Duration.ofSeconds(10))).isEqualTo("awaited pong");
        assertThat(answer.block(Duration.ofSeconds(10))).as("the outcome is replayed to every subscriber").isEqualTo("awaited pong");
    }

    @Test
    void aMonoAnswersOverHttpOnceItsReplyArrives() throws Exception {
        CompletableFuture<HttpResponse<String>> pending = http.getAsync("/await/k-2");
        await().atMost(10, SECONDS).until(() -> replies.waiting("k-2"));
        assertThat(pending).isNotDone();

        replies.answer("k-2", "pong");

        HttpResponse<String> response = pending.get(10, SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("awaited pong");
    }

    @Test
    void aFluxEndpointDeliversItsElementsInOrder() {
        HttpResponse<String> response = http.get("/spell/abc");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("[\"a\",\"b\",\"c\"]");
        assertThat(replies.spell("xyz").collectList().block(Duration.ofSeconds(10))).containsExactly("x", "y", "z");
    }

    @Test
    void anEmptyMonoCompletesEmpty() {
        assertThat(replies.nothing("k-3").blockOptional(Duration.ofSeconds(10))).isEmpty();
    }

    @Test
    void aRejectedCallIsAnswered503WithRetryAfterAndAProblemDetail() throws Exception {
        CompletableFuture<HttpResponse<String>> first = http.getAsync("/await/first");
        await().atMost(10, SECONDS).until(() -> replies.waiting("first"));

        HttpResponse<String> second = http.get("/await/second");

        assertThat(second.statusCode()).as(second.body()).isEqualTo(503);
        assertThat(second.headers().firstValue("Retry-After")).hasValue("3");
        assertThat(second.headers().firstValue("Content-Type")).get(STRING).startsWith("application/problem+json");
        JsonNode problem = LocalHttp.json(second);
        assertThat(problem.get("reason").asString()).isEqualTo("COMPONENT_LIMIT");
        assertThat(problem.get("component").asString()).isEqualTo("replies");
        assertThat(LocalHttp.revealsJavaInternals(second.body())).as(second.body()).isFalse();

        replies.answer("first", "pong");
        assertThat(first.get(10, SECONDS).body()).isEqualTo("awaited pong");
    }

    @Test
    void aFailedMonoIsNotMadeA503() {
        HttpResponse<String> response = http.get("/broken/k-4");

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.headers().firstValue("Retry-After")).isEmpty();
    }

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {

        @Bean
        Replies replies() {
            return new Replies();
        }

        @Bean
        RepliesController repliesController(Replies replies) {
            return new RepliesController(replies);
        }
    }

    /** Endpoints returning Reactor types; {@code await} completes only when the test answers. */
    @AppComponent("replies")
    static class Replies {

        private final Map<String, Sinks.One<String>> pending = new ConcurrentHashMap<>();
        private final List<String> waiting = new CopyOnWriteArrayList<>();

        @Endpoint
        public Mono<String> await(@ObjectKey String key) {
            Sinks.One<String> sink = Sinks.one();
            pending.put(key, sink);
            waiting.add(key);
            return sink.asMono().map(value -> "awaited " + value);
        }

        @Endpoint
        public Flux<String> spell(@ObjectKey String word) {
            return Flux.fromArray(word.split(""));
        }

        @Endpoint
        public Mono<String> nothing(@ObjectKey String key) {
            return Mono.empty();
        }

        @Endpoint
        public Mono<String> broken(@ObjectKey String key) {
            return Mono.error(new IllegalStateException("broken " + key));
        }

        boolean waiting(String key) {
            return waiting.contains(key);
        }

        void answer(String key, String value) {
            waiting.remove(key);
            pending.remove(key).tryEmitValue(value);
        }

        void answerAll(String value) {
            List.copyOf(pending.keySet()).forEach(key -> answer(key, value));
        }
    }

    @RestController
    static class RepliesController {

        private final Replies replies;

        RepliesController(Replies replies) {
            this.replies = replies;
        }

        @GetMapping("/await/{key}")
        Mono<String> await(@PathVariable String key) {
            return replies.await(key);
        }

        @GetMapping("/spell/{word}")
        Mono<List<String>> spell(@PathVariable String word) {
            return replies.spell(word).collectList();
        }

        @GetMapping("/broken/{key}")
        Mono<String> broken(@PathVariable String key) {
            return replies.broken(key);
        }
    }
}
