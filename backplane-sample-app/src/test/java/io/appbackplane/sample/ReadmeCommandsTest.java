package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.sample.load.LoadStats;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.test.context.ActiveProfiles;
import tools.jackson.databind.JsonNode;

/**
 * Every {@code curl} command of the README, run as written against the sample app: the method,
 * headers, body and path of each are parsed from README.md, the README's ports are mapped to the
 * test's random ones (after checking that they are the ports the sample's application.yml
 * configures), and each must answer 2xx with what its comment promises. The {@code java -jar}
 * commands are run by {@link ExecutableJarIT}; the {@code ./mvnw} commands are the build itself.
 */
// A context of its own (the property only tells it apart), so that no other class's paused context is resumed for it.
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.test-context=readme")
@ActiveProfiles("test")
class ReadmeCommandsTest {

    static final Path README = Path.of("../README.md");
    /** The ports the README's commands use: the application's and Actuator's. */
    static final int README_APPLICATION_PORT = 8080;
    static final int README_MANAGEMENT_PORT = 8090;

    private static final Pattern FENCED_BASH = Pattern.compile("```bash\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern TOKEN = Pattern.compile("'([^']*)'|\"([^\"]*)\"|(\\S+)");

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    LoadStats loadStats;

    Http http;

    @BeforeEach
    void client() {
        http = new Http(port, managementPort);
    }

    @Test
    void theReadmesPortsAreTheOnesTheSampleConfigures() throws IOException {
        List<PropertySource<?>> yaml = new YamlPropertySourceLoader().load("application.yml", new ClassPathResource("application.yml"));
        Object serverPort = yaml.get(0).getProperty("server.port");
        assertThat(serverPort == null ? README_APPLICATION_PORT : Integer.parseInt(serverPort.toString()))
                .isEqualTo(README_APPLICATION_PORT);
        assertThat(yaml.get(0).getProperty("management.server.port")).hasToString(String.valueOf(README_MANAGEMENT_PORT));
        assertThat(readme()).contains("http://localhost:" + README_MANAGEMENT_PORT + "/actuator/backplaneview");
    }

    @Test
    void everyCurlCommandOfTheReadmeAnswersWhatItsCommentSays() throws IOException {
        loadStats.answered(3_000_000); // one urgent request of 3 ms, as the load generator records it
        List<Curl> commands = curlCommands(readme());
        assertThat(commands).as("the README's curl commands").hasSizeGreaterThanOrEqualTo(6);

        for (Curl curl : commands) {
            HttpResponse<String> response = http.send(curl.method(), curl.path(), curl.headers(), curl.body());
            assertThat(response.statusCode()).as(curl.line() + "\n" + response.body()).isBetween(200, 299);
            if (curl.path().startsWith("/actuator/metrics/sample.urgent.latency.percentile")) {
                JsonNode p99 = Http.json(response);
                assertThat(p99.get("name").asString()).isEqualTo(LoadStats.URGENT_LATENCY_PERCENTILE);
                assertThat(p99.get("measurements").get(0).get("value").asDouble()).as(curl.line())
                        .isBetween(0.002, 0.004); // seconds: the 3 ms recorded above
            }
            if (curl.path().startsWith("/pricing/runs")) {
                String location = response.headers().firstValue("Location").orElseThrow();
                assertThat(http.get(location).statusCode()).as("GET its Location").isEqualTo(200);
                assertThat(http.delete(location).statusCode()).as("cancelled, so no other test shares its load").isEqualTo(200);
            }
        }
    }

    private static String readme() throws IOException {
        return Files.readString(README);
    }

    /** The README's {@code curl} lines, parsed. */
    static List<Curl> curlCommands(String readme) {
        List<Curl> commands = new ArrayList<>();
        Matcher block = FENCED_BASH.matcher(readme);
        while (block.find()) {
            for (String line : block.group(1).split("\n")) {
                if (line.startsWith("curl ")) {
                    commands.add(Curl.parse(line));
                }
            }
        }
        return commands;
    }

    /** One curl command: what it sends, to the port and path it names. */
    record Curl(String line, String method, int port, String path, Map<String, String> headers, String body) {

        static Curl parse(String line) {
            List<String> tokens = new ArrayList<>();
            Matcher token = TOKEN.matcher(line.replaceFirst("\\s+#.*$", ""));
            while (token.find()) {
                tokens.add(token.group(1) != null ? token.group(1) : token.group(2) != null ? token.group(2) : token.group(3));
            }
            String method = null;
            String url = null;
            String body = null;
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < tokens.size(); i++) {
                String t = tokens.get(i);
                switch (t) {
                    case "-s" -> { }
                    case "-X" -> method = tokens.get(++i);
                    case "-H" -> {
                        String[] header = tokens.get(++i).split(":\\s*", 2);
                        headers.put(header[0], header[1]);
                    }
                    case "-d" -> body = tokens.get(++i);
                    default -> {
                        if (t.startsWith("-X")) {
                            method = t.substring(2);
                        } else if (t.startsWith("-")) {
                            throw new IllegalArgumentException("an option this test does not know: " + t + " in " + line);
                        } else {
                            url = t;
                        }
                    }
                }
            }
            if (url == null) {
                throw new IllegalArgumentException("no URL in " + line);
            }
            URI uri = URI.create(url.startsWith("http") ? url : "http://" + url);
            assertThat(uri.getHost()).as(line).isEqualTo("localhost");
            assertThat(uri.getPort()).as(line).isIn(README_APPLICATION_PORT, README_MANAGEMENT_PORT);
            String path = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
            assertThat(path.startsWith("/actuator")).as(line + ": Actuator paths go to the management port")
                    .isEqualTo(uri.getPort() == README_MANAGEMENT_PORT);
            return new Curl(line, method == null ? (body == null ? "GET" : "POST") : method, uri.getPort(), path, headers, body);
        }
    }
}
