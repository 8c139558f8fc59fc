package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import tools.jackson.databind.JsonNode;

/**
 * The kafka profile as docs/scale-out.md runs it (here against an in-JVM KRaft broker): orders published with {@code POST /orders/feed} arrive on the topic, run through the
 * intake component and are committed; {@code /actuator/backplanekafka} shows it.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ActiveProfiles({"test", "kafka"})
class KafkaProfileTest {

    static final EmbeddedKafkaKraftBroker BROKER = new EmbeddedKafkaKraftBroker(1, 6);

    @DynamicPropertySource
    static void broker(DynamicPropertyRegistry registry) {
        BROKER.afterPropertiesSet(); // an in-JVM KRaft broker on a random port, for this class
        registry.add("spring.kafka.bootstrap-servers", BROKER::getBrokersAsString);
    }

    @AfterAll
    static void stopBroker() {
        BROKER.destroy();
    }

    @LocalServerPort
    int port;

    Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
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
    }

    @Test
    void aBadFeedRequestIsRejectedWithTheAllowedRange() {
        HttpResponse<String> bad = http.post("/orders/feed?count=0", "");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("'count' must be 1..100000");
    }
}
