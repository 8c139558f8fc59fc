package io.appbackplane.sample;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.sample.load.LoadGenerator;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import tools.jackson.databind.JsonNode;

/**
 * Load mode, turned on for a few seconds: the summary line reports urgent p50/p99, bulk throughput,
 * CPU and rejections; the load stops by itself and the app keeps serving; actuator confirms.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "sample.load.enabled=true",
        "sample.load.duration=6s",
        "sample.load.warmup=1s",
        "sample.load.urgent-interval=10ms",
        "sample.load.bulk-in-flight=300",
        "backplane.components.pricing.operation-limit=200"})
@ActiveProfiles("test")
@ExtendWith(OutputCaptureExtension.class)
class LoadModeTest {

    private static final Pattern SUMMARY = Pattern.compile(
            "summary: urgent p50=\\d+\\.\\dms p99=\\d+\\.\\dms .*\\| queue wait p0 \\d+\\.\\dms \\(99th \\d+\\.\\dms\\), p6 \\d+ms \\| bulk \\d+ actions/s \\| cpu \\d+\\.\\d\\d of 1\\.50 cores.*\\| rejected \\d+");

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    LoadGenerator generator;

    @Test
    void theSummaryReportsLatencyThroughputCpuAndRejectionsAndTheLoadStopsByItself(CapturedOutput output) throws Exception {
        await().atMost(30, SECONDS).until(() -> SUMMARY.matcher(output.getOut()).find());
        assertThat(generator.awaitFinished(Duration.ofSeconds(30))).as("load mode ends by itself").isTrue();
        assertThat(output.getOut()).contains("load: finished after 6s");

        Http http = new Http(port, managementPort);
        HttpResponse<String> order = http.post("/orders", Http.order("sku-0001", 1));
        assertThat(order.statusCode()).as("the app keeps serving").isEqualTo(200);

        JsonNode latency = Http.json(http.get("/actuator/metrics/sample.urgent.latency"));
        assertThat(latency.get("measurements").get(0).get("value").asDouble()).as("urgent requests recorded").isPositive();
        JsonNode backplane = Http.json(http.get("/actuator/backplane")).get("default");
        JsonNode pricing = OverloadTest.component(backplane, "pricing");
        assertThat(pricing.get("counts").get("actionsRun").asLong()).isPositive();
        assertThat(pricing.get("counts").get("rejected").asLong()).as("300 in flight against a limit of 200").isPositive();
        await().atMost(30, SECONDS).until(() -> OverloadTest.component(
                Http.json(http.get("/actuator/backplane")).get("default"), "pricing").get("outstanding").asInt() == 0);
    }
}
