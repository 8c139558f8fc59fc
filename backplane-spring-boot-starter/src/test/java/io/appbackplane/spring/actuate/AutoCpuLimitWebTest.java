package io.appbackplane.spring.actuate;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.CpuCgroup;
import io.appbackplane.spring.LocalHttp;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.metrics.BackplaneMeters;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.JsonNode;

/**
 * {@code cpu-limit: auto} in a real CPU cgroup: this test's own JVM is moved into a child cgroup
 * with a 2-core quota before the context starts (on a machine with 2 cores it limits nothing
 * else), and {@code /actuator/backplane} and the {@code backplane.cpu.limit} meter over HTTP show
 * the limit as {@code auto}, the quota it follows and the cores in force; when the cgroup is
 * resized to 1 core the limit follows it. The JVM goes back to its own cgroup afterwards and the
 * child cgroup is removed. Skipped with a notice where no cgroup can be made (not root, no cgroup
 * file system), failing instead when CI=true.
 */
@SpringBootTest(classes = AutoCpuLimitWebTest.App.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "server.address=127.0.0.1",
        "management.endpoints.web.exposure.include=backplane,metrics",
        "backplane.instances.default.cpu-limit=auto",
        "backplane.instances.default.integration-period=200ms"})
class AutoCpuLimitWebTest {

    private static CpuCgroup cgroup;
    private static String originalCgroupProcs;

    @LocalServerPort
    int port;

    LocalHttp http;

    @BeforeAll
    static void moveThisJvmIntoACgroupWithATwoCoreQuota() throws IOException {
        cgroup = CpuCgroup.create("backplane-auto-cpu-web-test", 2.0);
        originalCgroupProcs = cgroup.dir().getParent().resolve("cgroup.procs").toString();
        cgroup.add(ProcessHandle.current().pid());
    }

    @AfterAll
    static void moveItBackAndRemoveTheCgroup() throws IOException {
        if (cgroup != null) {
            cgroup.close(); // moves this JVM to the parent cgroup, then removes the child
        }
    }

    @BeforeEach
    void client() {
        http = new LocalHttp(port);
    }

    @Test
    void theActuatorAndTheMeterShowAutoTheQuotaFollowedAndTheLimitInForce_andFollowAResize() throws Exception {
        JsonNode cpu = cpu();
        assertThat(cpu.get("limit").asString()).isEqualTo("auto");
        assertThat(cpu.get("auto").get("quotaCores").asDouble()).isEqualTo(2.0);
        assertThat(cpu.get("auto").get("quotaSource").asString()).startsWith(cgroup.dir().toString());
        // The limit in force is 95 % of the quota minus what the rest of this JVM is taken to use,
        // never below 5 % of the quota (a tick may fall between two reads: awaited).
        await().atMost(20, SECONDS).untilAsserted(() -> assertFollows(cpu(), 2.0));
        assertThat(meter()).isBetween(0.1, 1.9);

        cgroup.setQuota(1.0);

        await().atMost(20, SECONDS).untilAsserted(() -> {
            JsonNode resized = cpu();
            assertThat(resized.get("auto").get("quotaCores").asDouble()).isEqualTo(1.0);
            assertFollows(resized, 1.0);
            assertThat(meter()).isBetween(0.05, 0.95);
        });
    }

    private static void assertFollows(JsonNode cpu, double quota) {
        double rest = cpu.get("auto").get("restOfProcessCores").asDouble();
        assertThat(cpu.get("limitCores").asDouble()).as(cpu.toString())
                .isCloseTo(Math.max(0.05 * quota, 0.95 * quota - rest), within(1e-6));
    }

    private JsonNode cpu() throws Exception {
        return LocalHttp.json(http.get("/actuator/backplane/default")).get("cpu");
    }

    private double meter() throws Exception {
        JsonNode metric = LocalHttp.json(http.get("/actuator/metrics/" + BackplaneMeters.CPU_LIMIT + "?tag=backplane:default"));
        return metric.get("measurements").get(0).get("value").asDouble();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        Work work() {
            return new Work();
        }
    }

    @AppComponent
    static class Work {
        @Endpoint(priority = 1)
        CompletableFuture<String> ping() {
            return CompletableFuture.completedFuture("pong");
        }
    }
}
