package io.appbackplane.spring.liveview;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.LocalHttp;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.JsonNode;

/** The live view over real HTTP on 127.0.0.1: the page, its files, its data, and nothing else. */
@SpringBootTest(classes = LiveViewWebTest.App.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "server.address=127.0.0.1",
        "management.endpoints.web.exposure.include=backplaneview",
        "backplane.live-view.enabled=true",
        "backplane.instances.default.cpu-limit=500m"})
class LiveViewWebTest {

    @LocalServerPort
    int port;

    @Autowired
    Orders orders;

    LocalHttp http;

    @BeforeEach
    void client() {
        http = new LocalHttp(port);
    }

    @Test
    void page_isHtmlThatLoadsChartJsAndItsScriptFromUnderTheEndpoint_noCdn() {
        HttpResponse<String> page = http.get("/actuator/backplaneview");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).get(STRING).startsWith("text/html");
        assertThat(page.body()).contains("src=\"backplaneview/chart.umd.min.js\"", "src=\"backplaneview/live-view.js\"")
                .doesNotContain("http://", "https://");
        for (String file : new String[] {"chart.umd.min.js", "live-view.js"}) {
            HttpResponse<String> js = http.get("/actuator/backplaneview/" + file);
            assertThat(js.statusCode()).as(file).isEqualTo(200);
            assertThat(js.headers().firstValue("Content-Type")).get(STRING).startsWith("text/javascript");
        }
        assertThat(http.get("/actuator/backplaneview/chart.umd.min.js").body()).contains("Chart");
        HttpResponse<String> css = http.get("/actuator/backplaneview/live-view.css");
        assertThat(css.headers().firstValue("Content-Type")).get(STRING).startsWith("text/css");
    }

    @Test
    void data_givesFramesOncePerSecondPerBackplane_andSinceAnswersOnlyNewerOnes() {
        for (int i = 0; i < 20; i++) {
            orders.place("o" + i).join();
        }
        JsonNode data = await().atMost(15, SECONDS).until(() -> LocalHttp.json(http.get("/actuator/backplaneview/data")),
                d -> d.get("backplanes").get(0).get("frames").size() >= 2);

        assertThat(data.get("instance").asString()).isNotBlank();
        assertThat(data.get("historySeconds").asInt()).isEqualTo(300);
        JsonNode backplane = data.get("backplanes").get(0);
        assertThat(backplane.get("name").asString()).isEqualTo("default");
        assertThat(backplane.get("state").asString()).isEqualTo("PRIMARY");
        JsonNode frame = backplane.get("frames").get(0);
        assertThat(frame.get("cpuLimitCores").asDouble()).isEqualTo(0.5);
        assertThat(frame.get("readyDepth").size()).isEqualTo(8);
        assertThat(frame.get("queueWaitP50Ms").size()).isEqualTo(8);
        assertThat(frame.get("actionsPerSecond").has("orders")).isTrue();
        assertThat(frame.get("rejectionsPerSecond").propertyNames())
                .containsExactly("COMPONENT_LIMIT", "BACKPLANE_LIMIT", "CLOSED", "STATE", "OFFLOAD_LIMIT");
        assertThat(backplane.get("components").findValuesAsString("name")).contains("default", "orders");

        JsonNode frames = backplane.get("frames");
        long last = frames.get(frames.size() - 1).get("t").asLong();
        JsonNode newer = LocalHttp.json(http.get("/actuator/backplaneview/data?since=" + last)).get("backplanes").get(0).get("frames");
        for (JsonNode f : newer) {
            assertThat(f.get("t").asLong()).isGreaterThan(last);
        }
    }

    @Test
    void anythingElseUnderTheEndpointIs404_andWritesAreNotAllowed() {
        assertThat(http.get("/actuator/backplaneview/..%2Fapplication.properties").statusCode()).isIn(400, 404);
        assertThat(http.get("/actuator/backplaneview/live-view.html").statusCode()).isEqualTo(404);
        assertThat(http.get("/actuator/backplaneview/chart.umd.js.map").statusCode()).isEqualTo(404);
        assertThat(http.postJson("/actuator/backplaneview", "{}").statusCode()).isEqualTo(405);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        Orders orders() {
            return new Orders();
        }
    }

    @AppComponent("orders")
    static class Orders {

        @Endpoint(priority = 2)
        CompletableFuture<String> place(@ObjectKey String orderId) {
            return CompletableFuture.completedFuture("placed " + orderId);
        }
    }
}
