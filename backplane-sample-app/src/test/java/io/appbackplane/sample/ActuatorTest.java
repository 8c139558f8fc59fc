package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import tools.jackson.databind.JsonNode;

/** What {@code /actuator/backplane}, {@code /actuator/health} and {@code /actuator/metrics} show of the order desk. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
class ActuatorTest {

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
    void backplaneEndpointShowsTheComponentsInPrimaryWithTheirDependenciesAndTheCpuLimit() {
        HttpResponse<String> response = http.get("/actuator/backplane");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode backplane = Http.json(response).get("default");

        assertThat(backplane.get("state").asString()).isEqualTo("PRIMARY");
        assertThat(backplane.get("policy").get("cpuLimit").asString()).isEqualTo("1500m");
        assertThat(backplane.get("cpu").get("limit").asString()).isEqualTo("1500m");
        assertThat(backplane.get("policy").get("threads").asInt()).isEqualTo(2);
        assertThat(dependencies(backplane, "warehouse")).isEmpty();
        assertThat(dependencies(backplane, "payments")).isEmpty();
        assertThat(dependencies(backplane, "orders")).containsExactlyInAnyOrder("warehouse", "payments");
        assertThat(dependencies(backplane, "pricing")).containsExactly("warehouse");
        assertThat(dependencies(backplane, "reporter")).containsExactlyInAnyOrder("orders", "pricing");
        for (String name : List.of("warehouse", "payments", "orders", "pricing", "reporter")) {
            JsonNode component = OverloadTest.component(backplane, name);
            assertThat(component.get("state").asString()).as(name).isEqualTo("PRIMARY");
        }
        JsonNode orders = OverloadTest.component(backplane, "orders");
        assertThat(orders.get("operationLimit").asInt()).isEqualTo(2000);
        List<String> endpoints = new ArrayList<>();
        orders.get("endpoints").forEach(e -> endpoints.add(e.get("name").asString()));
        assertThat(endpoints).contains("place", "status");
    }

    @Test
    void healthIsUpAndMetricsShowTheBackplaneMeters() {
        HttpResponse<String> health = http.get("/actuator/health");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(Http.json(health).get("status").asString()).isEqualTo("UP");

        HttpResponse<String> cpuLimit = http.get("/actuator/metrics/backplane.cpu.limit");
        assertThat(cpuLimit.statusCode()).as(cpuLimit.body()).isEqualTo(200);
        assertThat(Http.json(cpuLimit).get("measurements").get(0).get("value").asDouble()).isEqualTo(1.5);

        HttpResponse<String> latency = http.get("/actuator/metrics/sample.urgent.latency");
        assertThat(latency.statusCode()).as(latency.body()).isEqualTo(200);
    }

    private static List<String> dependencies(JsonNode backplane, String name) {
        List<String> dependencies = new ArrayList<>();
        OverloadTest.component(backplane, name).get("dependencies").forEach(d -> dependencies.add(d.asString()));
        return dependencies;
    }
}
