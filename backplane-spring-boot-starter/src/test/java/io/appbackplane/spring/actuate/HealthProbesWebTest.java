package io.appbackplane.spring.actuate;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.LocalHttp;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import java.net.http.HttpResponse;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.TestPropertySource;

/**
 * Readiness through Boot's own idiom, over real HTTP: the {@code backplane} health indicator is in
 * the readiness probe when {@code management.endpoint.health.group.readiness.include} lists it, and
 * then a backplane that is not UP (stalled) fails {@code /actuator/health/readiness} (503: out of
 * traffic) but not {@code /actuator/health/liveness} (200: no restart), until it is UP again. A
 * readiness list of the application's own that does not name it is used as written.
 */
class HealthProbesWebTest {

    @Nested
    @TestPropertySource(properties = "management.endpoint.health.group.readiness.include=readinessState,backplane")
    class ListedInReadiness extends Scenario {

        @Test
        void aStallFailsReadinessNotLivenessUntilTheBackplaneIsUpAgain() throws InterruptedException {
            assertThat(readiness()).isEqualTo(200);

            stall();
            try {
                await().atMost(10, SECONDS).until(() -> readiness() == 503);
                assertThat(LocalHttp.json(http().get("/actuator/health/readiness")).get("status").asString()).isEqualTo("DOWN");
                assertThat(http().get("/actuator/health/liveness").statusCode()).isEqualTo(200);
            } finally {
                stuck.release();
            }
            await().atMost(10, SECONDS).until(() -> readiness() == 200);
        }
    }

    @Nested
    @TestPropertySource(properties = "management.endpoint.health.group.readiness.include=readinessState,gate")
    class TheApplicationsOwnReadinessList extends Scenario {

        @Autowired
        Gate gate;

        @Test
        void isUsedAsWritten() throws InterruptedException {
            stall();
            try {
                await().atMost(10, SECONDS).until(() -> http().get("/actuator/health/backplane").statusCode() == 503);
                assertThat(readiness()).as("backplane is not in the application's readiness list").isEqualTo(200);
            } finally {
                stuck.release();
            }
            gate.close();
            assertThat(readiness()).as("an indicator the list names").isEqualTo(503);
        }
    }

    @SpringBootTest(classes = App.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
            "server.address=127.0.0.1",
            "management.endpoints.web.exposure.include=health",
            "management.endpoint.health.probes.enabled=true",
            "management.endpoint.health.show-components=always",
            "backplane.instances.default.threads=1",
            "backplane.health.stall-timeout=200ms"})
    abstract static class Scenario {

        @LocalServerPort
        int port;

        @Autowired
        Stuck stuck;

        LocalHttp http() {
            return new LocalHttp(port);
        }

        int readiness() {
            HttpResponse<String> response = http().get("/actuator/health/readiness");
            return response.statusCode();
        }

        /** Holds the only worker and makes more work ready behind it: the backplane stalls. */
        void stall() throws InterruptedException {
            stuck.hold("a");
            stuck.hold("b");
        }
    }

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {
        @Bean
        Stuck stuck() {
            return new Stuck();
        }

        @Bean
        Gate gate() {
            return new Gate();
        }
    }

    /** An application's own indicator ({@code gate}): UP until closed. */
    static class Gate implements HealthIndicator {
        private volatile boolean open = true;

        void close() {
            open = false;
        }

        @Override
        public Health health() {
            return open ? Health.up().build() : Health.outOfService().build();
        }
    }

    @AppComponent("stuck")
    static class Stuck {
        private final CountDownLatch release = new CountDownLatch(1);

        @Endpoint
        public void hold(@ObjectKey String key) throws InterruptedException {
            if (!release.await(20, SECONDS)) {
                throw new IllegalStateException("the test never released the worker");
            }
        }

        void release() {
            release.countDown();
        }
    }
}
