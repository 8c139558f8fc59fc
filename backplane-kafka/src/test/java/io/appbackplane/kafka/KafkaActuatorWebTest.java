package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.annotation.AppComponent;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Kafka numbers inside {@code /actuator/backplane}, over real HTTP on 127.0.0.1: each
 * backplane's entry has an {@code extensions.kafka} section with its components' Kafka endpoints
 * and their partitions; a backplane without any has no such section.
 */
class KafkaActuatorWebTest {

    static final AtomicInteger DONE = new AtomicInteger();

    @AppComponent("meter")
    static class Meter {
        @KafkaEndpoint(topics = "actuator-kafka")
        void onRecord(ConsumerRecord<String, String> record) {
            DONE.incrementAndGet();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Meter.class)
    static class App {}

    @Test
    void theBackplaneEndpointShowsEachBackplanesKafkaEndpointsAndPartitions() throws Exception {
        TestBroker.createTopics(2, "actuator-kafka");
        ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
                .web(WebApplicationType.SERVLET)
                .properties("server.address=127.0.0.1", "server.port=0",
                        "management.endpoints.web.exposure.include=backplane,backplanekafka",
                        "spring.kafka.bootstrap-servers=" + TestBroker.bootstrapServers(),
                        "spring.kafka.consumer.auto-offset-reset=earliest",
                        "backplane.kafka.group-id=actuator-kafka",
                        "backplane.instances.other.threads=1")
                .run();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try (context) {
            KafkaHandOverTest.send("actuator-kafka", 30, 10);
            await().atMost(TestBroker.patience()).until(() -> DONE.get() == 30);
            await().atMost(TestBroker.patience()).until(() -> TestBroker.committed("actuator-kafka").values().stream()
                    .mapToLong(Long::longValue).sum() == 30);
            int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);

            JsonNode backplanes = get(http, port, "/actuator/backplane");
            JsonNode kafka = backplanes.path("default").path("extensions").path("kafka");
            System.out.println("[actuator] /actuator/backplane default.extensions.kafka = " + kafka);
            JsonNode endpoint = kafka.path("endpoints").path("meter.onRecord");
            assertThat(endpoint.path("topics").get(0).asString()).isEqualTo("actuator-kafka");
            assertThat(endpoint.path("groupId").asString()).isEqualTo("actuator-kafka");
            assertThat(endpoint.path("completed").asLong()).isEqualTo(30);
            JsonNode partitions = endpoint.path("partitions");
            assertThat(partitions.propertyNames()).containsExactlyInAnyOrder("actuator-kafka-0", "actuator-kafka-1");
            long committed = partitions.path("actuator-kafka-0").path("committedOffset").asLong()
                    + partitions.path("actuator-kafka-1").path("committedOffset").asLong();
            assertThat(committed).isEqualTo(30);
            assertThat(partitions.path("actuator-kafka-0").has("lag")).isTrue();
            assertThat(partitions.path("actuator-kafka-0").has("pausedSeconds")).isTrue();
            assertThat(partitions.path("actuator-kafka-0").path("inFlight").asInt()).isZero();
            // a backplane without Kafka endpoints has no kafka section
            assertThat(backplanes.path("other").path("extensions").has("kafka")).isFalse();
            assertThat(get(http, port, "/actuator/backplane/default").path("extensions").path("kafka").path("endpoints")
                    .path("meter.onRecord").path("completed").asLong()).isEqualTo(30);
            // the Kafka-only endpoint stays: the same view of every endpoint, whatever its backplane
            assertThat(get(http, port, "/actuator/backplanekafka").path("meter.onRecord").path("completed").asLong()).isEqualTo(30);
        }
    }

    private static JsonNode get(HttpClient http, int port, String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return JsonMapper.builder().build().readTree(response.body());
    }
}
