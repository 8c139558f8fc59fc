package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import io.appbackplane.kafka.ListeningSockets;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The kafka profile as docs/scale-out.md runs it, with the demo's in-JVM broker (profile {@code
 * kafka-broker}, on a free port here rather than 9092): orders published with {@code POST
 * /orders/feed} arrive on the topic, run through the intake component and are committed; {@code
 * /actuator/backplane} and {@code /actuator/backplanekafka} show it. The broker is a bean of the
 * context, so it stops after the consumers (a broker stopped first left the consumers' close
 * waiting on it at JVM exit, and surefire killed the fork 30 s later).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ActiveProfiles({"test", "kafka", "kafka-broker"})
class KafkaProfileTest {

    @DynamicPropertySource
    static void broker(DynamicPropertyRegistry registry) throws java.io.IOException {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        registry.add("sample.kafka.broker.port", () -> port);
        registry.add("spring.kafka.bootstrap-servers", () -> "localhost:" + port);
        // A record's commit waits for the consumer's poll to return: a short poll ends the wait for
        // the committed offsets soon after the work does.
        registry.add("spring.kafka.listener.poll-timeout", () -> "200ms");
    }

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    Http http;

    @BeforeEach
    void client() {
        http = new Http(port, managementPort);
    }

    @Test
    void ordersPublishedToTheTopicAreProcessedAndCommitted() {
        HttpResponse<String> fed = http.post("/orders/feed?count=300&references=40", "");
        assertThat(fed.statusCode()).as(fed.body()).isEqualTo(202);

        await().atMost(Duration.ofSeconds(120)).untilAsserted(() -> {
            JsonNode intake = Http.json(http.get("/actuator/backplanekafka")).get("intake.onOrder");
            assertThat(intake.get("completed").asLong() + intake.get("deadLettered").asLong()).isEqualTo(300);
            long committed = 0;
            for (JsonNode partition : intake.get("partitions")) {
                committed += Math.max(0, partition.get("committedOffset").asLong());
            }
            assertThat(committed).isEqualTo(300);
        });
        JsonNode intake = Http.json(http.get("/actuator/backplanekafka")).get("intake.onOrder");
        assertThat(intake.get("topics").get(0).asString()).isEqualTo("orders-in");
        assertThat(intake.get("missingTopics")).isEmpty();
        JsonNode inBackplane = Http.json(http.get("/actuator/backplane")).path("default").path("extensions").path("kafka")
                .path("endpoints").path("intake.onOrder");
        assertThat(inBackplane.path("completed").asLong() + inBackplane.path("deadLettered").asLong()).isEqualTo(300);
    }

    @Test
    void theDemoBrokerAndTheServerListenOnLoopbackOnly() throws java.io.IOException {
        if (!ListeningSockets.available()) {
            String notice = "/proc is not readable here (not Linux?): cannot check which interfaces the demo broker"
                    + " listens on; run this test on Linux";
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError(notice + " (CI=true: this check must run)");
            }
            org.junit.jupiter.api.Assumptions.abort(notice);
        }
        java.util.List<ListeningSockets.Listener> listening = ListeningSockets.ofThisProcess();
        assertThat(listening).as("this JVM's listening sockets: the demo broker's two and the HTTP server")
                .hasSizeGreaterThanOrEqualTo(3);
        assertThat(listening).as("listening sockets not on 127.0.0.1 or ::1")
                .filteredOn(listener -> !listener.isLoopback()).isEmpty();
    }

    @Test
    void aBadFeedRequestIsRejectedWithTheAllowedRange() {
        HttpResponse<String> bad = http.post("/orders/feed?count=0", "");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("'count' must be 1..100000");
    }
}
