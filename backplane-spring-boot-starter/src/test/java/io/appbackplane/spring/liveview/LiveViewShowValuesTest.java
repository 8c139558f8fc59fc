package io.appbackplane.spring.liveview;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.LocalHttp;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The live view's slowest actions show object keys (whose text may carry personal data) only as
 * {@code backplane.live-view.show-values} allows: never by default, never to an anonymous caller
 * with when-authorized, and as text with always. Over real HTTP on 127.0.0.1.
 */
class LiveViewShowValuesTest {

    /** A key whose text names a customer and a card, as a record's toString does. */
    record CustomerKey(String customer, String card) {}

    static final CustomerKey KEY = new CustomerKey("Ada Lovelace", "4111-1111-1111-1111");

    @Nested
    class ByDefault extends Scenario {
        @Test
        void objectKeysAreHidden() {
            JsonNode slow = slowActionShown();
            assertThat(slow.get("object").asString()).isEqualTo("******");
            assertThat(lastBody).doesNotContain("4111", "Ada");
        }
    }

    @Nested
    @TestPropertySource(properties = "backplane.live-view.show-values=when-authorized")
    class WhenAuthorized extends Scenario {
        @Test
        void anAnonymousCallerDoesNotSeeThem() {
            JsonNode slow = slowActionShown();
            assertThat(slow.get("object").asString()).isEqualTo("******");
            assertThat(lastBody).doesNotContain("4111");
        }
    }

    @Nested
    @TestPropertySource(properties = "backplane.live-view.show-values=always")
    class Always extends Scenario {
        @Test
        void everyCallerSeesTheKeysText() {
            JsonNode slow = slowActionShown();
            assertThat(slow.get("object").asString()).isEqualTo(KEY.toString());
        }
    }

    /** One application per case, differing only in its show-values setting (the nested class's). */
    @SpringBootTest(classes = App.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
            "server.address=127.0.0.1",
            "management.endpoints.web.exposure.include=backplaneview",
            "backplane.live-view.enabled=true",
            "backplane.instances.default.slow-action-threshold=1ms"})
    abstract static class Scenario {

        @LocalServerPort
        int port;

        @Autowired
        Accounts accounts;

        String lastBody;

        /** Runs one slow action on {@link #KEY} and answers its row of the page's data. */
        JsonNode slowActionShown() {
            accounts.charge(KEY).join();
            LocalHttp http = new LocalHttp(port);
            return await().atMost(15, SECONDS).until(() -> {
                HttpResponse<String> data = http.get("/actuator/backplaneview/data");
                lastBody = data.body();
                JsonNode slow = LocalHttp.json(data).get("backplanes").get(0).get("slowActions");
                return slow.isEmpty() ? null : slow.get(0);
            }, row -> row != null);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        Accounts accounts() {
            return new Accounts();
        }
    }

    @AppComponent("accounts")
    static class Accounts {

        /** Runs over the 1 ms slow-action threshold: the work itself takes 5 ms. */
        @Endpoint
        CompletableFuture<String> charge(@ObjectKey CustomerKey key) {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5);
            for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
                LockSupport.parkNanos(end - now);
            }
            return CompletableFuture.completedFuture("charged");
        }
    }
}
