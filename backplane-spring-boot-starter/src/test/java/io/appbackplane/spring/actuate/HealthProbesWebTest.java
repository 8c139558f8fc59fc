package io.appbackplane.spring.actuate;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.LocalHttp;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

/**
 * With availability probes on, a stalled backplane fails {@code /actuator/health/readiness} (503:
 * out of traffic) but not {@code /actuator/health/liveness} (200: no restart), and readiness comes
 * back when the backplane makes progress again.
 */
@SpringBootTest(classes = HealthProbesWebTest.App.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "server.address=127.0.0.1",
        "management.endpoints.web.exposure.include=health",
        "management.endpoint.health.probes.enabled=true",
        "backplane.instances.default.threads=1",
        "backplane.health.stall-timeout=200ms"})
class HealthProbesWebTest {

    @LocalServerPort
    int port;

    @Autowired
    Stuck stuck;

    @Test
    void aStallFailsReadinessNotLiveness() throws InterruptedException {
        LocalHttp http = new LocalHttp(port);
        assertThat(http.get("/actuator/health/readiness").statusCode()).isEqualTo(200);

        stuck.hold("a");              // holds the only worker
        stuck.hold("b");              // ready, and nothing runs: a stall
        try {
            await().atMost(10, SECONDS).until(() -> http.get("/actuator/health/readiness").statusCode() == 503);
            assertThat(http.get("/actuator/health/liveness").statusCode()).isEqualTo(200);
        } finally {
            stuck.release();
        }
        await().atMost(10, SECONDS).until(() -> http.get("/actuator/health/readiness").statusCode() == 200);
    }

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {
        @Bean
        Stuck stuck() {
            return new Stuck();
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
