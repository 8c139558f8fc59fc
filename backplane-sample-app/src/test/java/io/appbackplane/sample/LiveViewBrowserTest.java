package io.appbackplane.sample;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.ActiveProfiles;

/**
 * The live view in a real browser (headless Debian chromium) while the order desk runs its load:
 * every chart has data, the values move, the component graph shows each component's state, and the
 * browser logs no error. Writes {@code target/live-view.png}, the screenshot in docs/operations.md.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "sample.load.enabled=true",
        "sample.load.duration=120s",
        "sample.load.warmup=1s",
        "sample.load.urgent-interval=10ms",
        "sample.load.bulk-in-flight=300",
        "backplane.components.pricing.operation-limit=200"})
@ActiveProfiles("test")
@RequiresChromium
class LiveViewBrowserTest {

    static final List<String> CHARTS = List.of("cpu", "queueWait", "readyDepth", "actions", "rejections", "threads");
    static final Path SCREENSHOT = Path.of("target", "live-view.png");

    /** Per chart: labels (seconds shown), datasets, and the last point of every dataset. */
    private static final String READ_CHARTS = """
            const out = {};
            document.querySelectorAll('section[data-backplane="default"] canvas[data-chart]').forEach(c => {
              const chart = Chart.getChart(c);
              out[c.dataset.chart] = {
                labels: chart.data.labels.length,
                lastLabel: chart.data.labels[chart.data.labels.length - 1] ?? null,
                datasets: chart.data.datasets.map(d => d.label),
                numbers: chart.data.datasets.reduce((n, d) => n + d.data.filter(v => typeof v === 'number').length, 0),
                positive: chart.data.datasets.reduce((n, d) => n + d.data.filter(v => typeof v === 'number' && v > 0).length, 0),
                data: chart.data.datasets.map(d => d.data.slice(-3))
              };
            });
            return out;""";

    @LocalManagementPort
    int managementPort;

    @TempDir
    Path profile;

    ChromeDriver browser;

    @BeforeEach
    void openBrowser() {
        browser = Chromium.start(profile, 1500, 1120);
    }

    @AfterEach
    void closeBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyChartHasDataThatMovesUnderLoad_theGraphShowsEveryComponentsState_andTheBrowserLogsNoError() throws Exception {
        browser.get("http://127.0.0.1:" + managementPort + "/actuator/backplaneview");

        // Every chart has data: a few seconds of it, with numbers in it; CPU, actions and busy threads above zero.
        Map<String, Map<String, Object>> charts = await("every chart showing at least 4 s of data")
                .atMost(60, SECONDS).pollInterval(Duration.ofMillis(250))
                .until(this::readCharts, c -> c.keySet().containsAll(CHARTS)
                        && CHARTS.stream().allMatch(k -> ((Number) c.get(k).get("labels")).intValue() >= 4
                                && ((Number) c.get(k).get("numbers")).intValue() > 0)
                        && positive(c, "queueWait") && positive(c, "actions") && positive(c, "cpu"));
        assertThat(status()).isEqualTo("live");
        for (String chart : CHARTS) {
            assertThat((List<String>) charts.get(chart).get("datasets")).as(chart).isNotEmpty();
        }
        assertThat((List<String>) charts.get("cpu").get("datasets")).containsExactly("used", "limit", "throttled");
        assertThat((List<String>) charts.get("actions").get("datasets")).contains("orders", "pricing", "warehouse");
        assertThat((List<String>) charts.get("rejections").get("datasets"))
                .containsExactly("COMPONENT_LIMIT", "BACKPLANE_LIMIT", "CLOSED", "STATE", "OFFLOAD_LIMIT");
        assertThat((List<String>) charts.get("queueWait").get("datasets")).anyMatch(d -> d.endsWith("p99"));
        assertThat(positive(charts, "threads")).as("busy workers").isTrue();

        // Values move while the load runs: new seconds arrive and the actions per second change.
        Object firstLabel = charts.get("actions").get("lastLabel");
        Object firstData = charts.get("actions").get("data");
        await("the actions chart moving on").atMost(30, SECONDS).pollInterval(Duration.ofMillis(250))
                .until(this::readCharts, c -> !c.get("actions").get("lastLabel").equals(firstLabel)
                        && !c.get("actions").get("data").equals(firstData));

        // The component graph: one box per component, each showing its state.
        Map<String, Object> graph = (Map<String, Object>) browser.executeScript("""
                const svg = document.querySelector('section[data-backplane="default"] svg.graph');
                const boxes = {};
                svg.querySelectorAll('g.component').forEach(g => boxes[g.dataset.component] =
                    { state: g.dataset.state, shown: g.querySelector('text.state').textContent });
                return { boxes: boxes, lines: svg.querySelectorAll('line').length };""");
        Map<String, Map<String, String>> boxes = (Map<String, Map<String, String>>) graph.get("boxes");
        assertThat(boxes).containsOnlyKeys("default", "warehouse", "payments", "orders", "pricing", "reporter");
        boxes.forEach((component, box) -> {
            assertThat(box.get("state")).as(component).isEqualTo("PRIMARY");
            assertThat(box.get("shown")).as(component).startsWith("PRIMARY");
        });
        // warehouse <- orders, payments <- orders, warehouse <- pricing, orders <- reporter, pricing <- reporter
        assertThat(((Number) graph.get("lines")).intValue()).isGreaterThanOrEqualTo(5);

        // No console errors (a failed request, a script error) while the page ran.
        List<String> errors = new ArrayList<>();
        for (LogEntry entry : browser.manage().logs().get(LogType.BROWSER)) {
            if (entry.getLevel().intValue() >= Level.WARNING.intValue()) {
                errors.add(entry.getLevel() + " " + entry.getMessage());
            }
        }
        assertThat(errors).as("browser console warnings and errors").isEmpty();

        File shot = browser.getScreenshotAs(OutputType.FILE);
        Files.createDirectories(SCREENSHOT.getParent());
        Files.copy(shot.toPath(), SCREENSHOT, StandardCopyOption.REPLACE_EXISTING);
        assertThat(Files.size(SCREENSHOT)).isPositive();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Map<String, Object>> readCharts() {
        return (Map<String, Map<String, Object>>) browser.executeScript(READ_CHARTS);
    }

    private String status() {
        return (String) ((JavascriptExecutor) browser).executeScript("return document.getElementById('status').dataset.status;");
    }

    private static boolean positive(Map<String, Map<String, Object>> charts, String chart) {
        return ((Number) charts.get(chart).get("positive")).intValue() > 0;
    }
}
