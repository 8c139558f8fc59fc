package io.appbackplane.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.ComponentState;
import io.appbackplane.spring.LocalHttp;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The rejection advice answers backplane rejections only, ahead of the application's own advice,
 * so that adding the starter changes no other error answer: a catch-all handler of the application does not turn a rejection into a
 * 500, and a CompletionException that is not a rejection reaches the application's handler.
 */
@SpringBootTest(classes = RejectionAdviceScopeTest.App.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {"server.address=127.0.0.1", "backplane.configs.default.threads=1"})
class RejectionAdviceScopeTest {

    @LocalServerPort
    int port;

    @Test
    void aRejectionIsA503EvenWhenTheApplicationHasACatchAllAdvice() {
        HttpResponse<String> response = new LocalHttp(port).get("/rejected");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        assertThat(response.body()).contains("urn:appbackplane:rejected").doesNotContain("application's catch-all");
    }

    @Test
    void aCompletionExceptionThatIsNotARejectionReachesTheApplicationsOwnHandler() {
        HttpResponse<String> response = new LocalHttp(port).get("/failed");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(409);
        assertThat(response.body()).isEqualTo("application's handler: not a rejection");
    }

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {
        @Bean
        Standby standby() {
            return new Standby();
        }

        @Bean
        Controller controller(Standby standby) {
            return new Controller(standby);
        }

        @Bean
        ApplicationAdvice applicationAdvice() {
            return new ApplicationAdvice();
        }
    }

    /** Accepts work only in SECONDARY; the node is PRIMARY, so every call is rejected. */
    @AppComponent
    static class Standby {
        @Endpoint(states = ComponentState.SECONDARY)
        CompletableFuture<String> work() {
            return CompletableFuture.completedFuture("done");
        }
    }

    @RestController
    static class Controller {
        private final Standby standby;

        Controller(Standby standby) {
            this.standby = standby;
        }

        @GetMapping("/rejected")
        String rejected() {
            return standby.work().join();
        }

        @GetMapping("/failed")
        String failed() {
            return CompletableFuture.<String>failedFuture(new IllegalStateException("not a rejection")).join();
        }
    }

    /** An application's advice without an order: a CompletionException handler and a catch-all. */
    @RestControllerAdvice
    static class ApplicationAdvice {
        @ExceptionHandler(CompletionException.class)
        ResponseEntity<String> completion(CompletionException failure) {
            return ResponseEntity.status(HttpStatus.CONFLICT).body("application's handler: " + failure.getCause().getMessage());
        }

        @ExceptionHandler(Exception.class)
        ResponseEntity<String> any(Exception failure) {
            return ResponseEntity.internalServerError().body("application's catch-all: " + failure);
        }
    }
}
