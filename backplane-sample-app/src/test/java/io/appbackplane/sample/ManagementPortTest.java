package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import tools.jackson.databind.JsonNode;

/**
 * The sample as a template: Actuator is served on a port of its own, bound to the loopback
 * interface, not on the application's port; anonymous callers see the health status without details.
 */
// A context of its own (the property only tells it apart), so that no other class's paused context is resumed for it.
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.test-context=management-port")
@ActiveProfiles("test")
class ManagementPortTest {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Value("${management.server.address:}")
    String managementAddress;

    Http http;

    @BeforeEach
    void client() {
        http = new Http(port, managementPort);
    }

    @Test
    void actuatorIsOnTheManagementPortOnly() {
        assertThat(managementPort).isNotEqualTo(port);
        assertThat(http.get("/actuator/backplane").statusCode()).isEqualTo(200);
        Http applicationPortOnly = new Http(port, port);
        for (String path : List.of("/actuator/backplane", "/actuator/metrics", "/actuator/prometheus", "/actuator/health",
                "/actuator/backplaneview")) {
            assertThat(applicationPortOnly.get(path).statusCode()).as(path).isEqualTo(404);
        }
    }

    @Test
    void healthShowsItsStatusButNoDetailsToAnonymousCallers() {
        HttpResponse<String> health = http.get("/actuator/health");

        assertThat(health.statusCode()).isEqualTo(200);
        JsonNode body = Http.json(health);
        assertThat(body.get("status").asString()).isEqualTo("UP");
        assertThat(body.has("components")).as(health.body()).isFalse();
        assertThat(body.has("details")).as(health.body()).isFalse();
        assertThat(health.body()).doesNotContain(System.getProperty("user.dir"));
        assertThat(http.get("/actuator/health/diskSpace").body()).doesNotContain(System.getProperty("user.dir"));
    }

    @Test
    void theManagementPortListensOnLoopbackOnly() throws IOException {
        assertThat(managementAddress).as("management.server.address").isNotBlank();
        assertThat(InetAddress.getByName(managementAddress).isLoopbackAddress()).as(managementAddress).isTrue();
        for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress address : Collections.list(network.getInetAddresses())) {
                if (address instanceof Inet4Address && !address.isLoopbackAddress() && network.isUp()) {
                    assertThatThrownBy(() -> {
                        try (Socket socket = new Socket()) {
                            socket.connect(new InetSocketAddress(address, managementPort), 2_000);
                        }
                    }).as("connecting to %s:%d", address.getHostAddress(), managementPort).isInstanceOf(IOException.class);
                }
            }
        }
    }
}
