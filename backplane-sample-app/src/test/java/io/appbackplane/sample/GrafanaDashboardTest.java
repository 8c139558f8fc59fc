package io.appbackplane.sample;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.ActiveProfiles;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * docs/grafana/backplane-dashboard.json asks only for what the order desk really publishes: every
 * PromQL expression in it is parsed, and each metric name, label and literal label value it uses is
 * looked up in a scrape of {@code /actuator/prometheus} taken while the demo load runs. Same
 * configuration as {@link LiveViewBrowserTest}, so the two share one application context.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "sample.load.enabled=true",
        "sample.load.duration=120s",
        "sample.load.warmup=1s",
        "sample.load.urgent-interval=10ms",
        "sample.load.bulk-in-flight=300",
        "backplane.components.pricing.operation-limit=200"})
@ActiveProfiles("test")
class GrafanaDashboardTest {

    static final Path DASHBOARD = Path.of("../docs/grafana/backplane-dashboard.json");
    static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*,\\s*([a-zA-Z_]\\w*)\\s*\\)");

    @LocalManagementPort
    int managementPort;

    @Test
    void everyQueryNamesMetricsLabelsAndValuesThatTheSampleReallyPublishes() throws Exception {
        JsonNode dashboard = JsonMapper.builder().build().readTree(Files.readString(DASHBOARD));
        List<String> expressions = new ArrayList<>();
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode target : panel.get("targets")) {
                expressions.add(target.get("expr").asString());
            }
        }
        List<String> labelValues = new ArrayList<>();
        for (JsonNode variable : dashboard.get("templating").get("list")) {
            labelValues.add(variable.get("query").get("query").asString());
        }
        // A scrape with rejections in it: the load overfills pricing's operation limit.
        Scrape scrape = await("a scrape of /actuator/prometheus with rejections").atMost(60, SECONDS)
                .until(this::scrape, s -> s.values("backplane_requests_total", "outcome").contains("rejected"));

        List<String> problems = new ArrayList<>();
        Set<String> metricsUsed = new HashSet<>();
        for (String expr : expressions) {
            PromQl query = PromQl.parse(expr);
            assertThat(query.selectors()).as("selectors in %s", expr).isNotEmpty();
            Set<String> labelsOfExpression = new HashSet<>();
            for (PromQl.Selector selector : query.selectors()) {
                metricsUsed.add(selector.metric());
                if (!scrape.metrics().contains(selector.metric())) {
                    problems.add(expr + ": metric " + selector.metric() + " is not published");
                    continue;
                }
                labelsOfExpression.addAll(scrape.labels(selector.metric()));
                for (PromQl.Matcher m : selector.matchers()) {
                    if (!scrape.labels(selector.metric()).contains(m.label())) {
                        problems.add(expr + ": " + selector.metric() + " has no label " + m.label());
                    } else if (!m.value().contains("$") && scrape.values(selector.metric(), m.label()).stream().noneMatch(m::matches)) {
                        problems.add(expr + ": no " + selector.metric() + " series has " + m.label() + m.op() + "\"" + m.value() + "\"");
                    }
                }
            }
            for (String label : query.groupingLabels()) {
                if (!labelsOfExpression.contains(label)) {
                    problems.add(expr + ": grouping label " + label + " is on none of its metrics");
                }
            }
        }
        for (String query : labelValues) { // Grafana's label_values(metric, label), not PromQL
            java.util.regex.Matcher m = LABEL_VALUES.matcher(query);
            assertThat(m.matches()).as("a label_values(metric, label) query: %s", query).isTrue();
            if (!scrape.labels(m.group(1)).contains(m.group(2))) {
                problems.add(query + ": " + m.group(1) + " is not published with label " + m.group(2));
            }
        }
        assertThat(problems).isEmpty();
        // The panels the issue asks for: CPU vs limit, queue wait by priority, depth, rejections, component states.
        assertThat(metricsUsed).contains("backplane_cpu_used_last", "backplane_cpu_limit", "backplane_priority_queue_seconds_sum",
                "backplane_ready_depth", "backplane_rejections_total", "backplane_component_state");
        assertThat(scrape.values("backplane_component_state", "state")).contains("PRIMARY", "DOWN");
    }

    @Test
    void thePromQlReaderFindsEverySelectorMatcherAndGroupingLabel() {
        PromQl q = PromQl.parse("sum by (backplane, reason) (rate(a_total{backplane=~\"$b\", outcome=\"rejected\"}[1m]))"
                + " / max without (x) (b) == 1");
        assertThat(q.selectors()).extracting(PromQl.Selector::metric).containsExactly("a_total", "b");
        assertThat(q.selectors().get(0).matchers()).containsExactly(
                new PromQl.Matcher("backplane", "=~", "$b"), new PromQl.Matcher("outcome", "=", "rejected"));
        assertThat(q.groupingLabels()).containsExactly("backplane", "reason", "x");
        assertThat(new PromQl.Matcher("state", "=~", "busy|idle").matches("idle")).isTrue();
    }

    private Scrape scrape() throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/actuator/prometheus"))
                .header("Accept", "text/plain").timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return Scrape.parse(response.body());
    }

    /** A Prometheus text-format scrape: for each metric, its label names and every value each label has. */
    record Scrape(Map<String, Map<String, Set<String>>> series) {

        private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+\\S+.*$");
        private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

        static Scrape parse(String text) {
            Map<String, Map<String, Set<String>>> series = new HashMap<>();
            for (String line : text.split("\n")) {
                Matcher m = LINE.matcher(line);
                if (line.startsWith("#") || !m.matches()) {
                    continue;
                }
                Map<String, Set<String>> labels = series.computeIfAbsent(m.group(1), k -> new HashMap<>());
                if (m.group(3) != null) {
                    Matcher l = LABEL.matcher(m.group(3));
                    while (l.find()) {
                        labels.computeIfAbsent(l.group(1), k -> new HashSet<>()).add(l.group(2));
                    }
                }
            }
            return new Scrape(series);
        }

        Set<String> metrics() {
            return series.keySet();
        }

        Set<String> labels(String metric) {
            return series.getOrDefault(metric, Map.of()).keySet();
        }

        Set<String> values(String metric, String label) {
            return series.getOrDefault(metric, Map.of()).getOrDefault(label, Set.of());
        }
    }

    /**
     * The parts of a PromQL expression that name data: vector selectors (metric and label
     * matchers) and the labels of {@code by (...)} / {@code without (...)} clauses. A tokenizer for
     * the PromQL the dashboard uses (functions, aggregations with grouping, range vectors, binary
     * operators, {@code label_values} of Grafana's templating); anything else fails the parse.
     */
    record PromQl(List<Selector> selectors, Set<String> groupingLabels) {

        record Selector(String metric, List<Matcher> matchers) {}

        record Matcher(String label, String op, String value) {
            boolean matches(String actual) {
                return switch (op) {
                    case "=" -> actual.equals(value);
                    case "!=" -> !actual.equals(value);
                    case "=~" -> actual.matches(value);
                    case "!~" -> !actual.matches(value);
                    default -> throw new IllegalArgumentException("unknown matcher operator " + op);
                };
            }
        }

        private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
                "bool", "and", "or", "unless", "offset");
        private static final Pattern TOKEN = Pattern.compile(
                "\\s+|(?<ident>[a-zA-Z_:][a-zA-Z0-9_:]*)|(?<number>[0-9]+(\\.[0-9]+)?)|(?<range>\\[[0-9a-z:]+])"
                        + "|(?<brace>\\{[^}]*})|(?<op>==|!=|>=|<=|[-+*/%^><(),])|(?<string>\"(?:[^\"\\\\]|\\\\.)*\")");
        private static final Pattern MATCHER = Pattern.compile(
                "\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"((?:[^\"\\\\]|\\\\.)*)\"\\s*(,|$)");

        static PromQl parse(String expr) {
            List<Selector> selectors = new ArrayList<>();
            Set<String> grouping = new LinkedHashSet<>();
            java.util.regex.Matcher t = TOKEN.matcher(expr);
            int at = 0;
            String pendingIdent = null; // an identifier whose role the next token decides
            boolean groupingNext = false;
            boolean inGrouping = false;
            while (at < expr.length()) {
                if (!t.find(at) || t.start() != at) {
                    throw new IllegalArgumentException("cannot parse PromQL at " + at + ": " + expr);
                }
                at = t.end();
                if (t.group().isBlank()) {
                    continue;
                }
                String ident = t.group("ident");
                String brace = t.group("brace");
                String op = t.group("op");
                if (inGrouping) {
                    if (ident != null) {
                        grouping.add(ident);
                    } else if (")".equals(op)) {
                        inGrouping = false;
                    }
                    continue;
                }
                if (pendingIdent != null && ("by".equals(ident) || "without".equals(ident))) {
                    pendingIdent = null; // it was an aggregation operator: sum by (...) (...)
                }
                if (pendingIdent != null) {
                    if ("(".equals(op)) { // a function or aggregation call, or a grouping clause
                        inGrouping = groupingNext;
                    } else {
                        selectors.add(new Selector(pendingIdent, brace == null ? List.of() : matchers(brace, expr)));
                    }
                    pendingIdent = null;
                    groupingNext = false;
                    if ("(".equals(op) || brace != null) {
                        continue;
                    }
                }
                if (ident != null) {
                    if (ident.equals("by") || ident.equals("without")) {
                        pendingIdent = ident;
                        groupingNext = true;
                    } else if (!KEYWORDS.contains(ident)) {
                        pendingIdent = ident;
                    }
                } else if (brace != null) {
                    throw new IllegalArgumentException("a selector without a metric name in " + expr);
                }
            }
            if (pendingIdent != null && !groupingNext) {
                selectors.add(new Selector(pendingIdent, List.of()));
            }
            return new PromQl(selectors, grouping);
        }

        private static List<Matcher> matchers(String brace, String expr) {
            String body = brace.substring(1, brace.length() - 1);
            List<Matcher> matchers = new ArrayList<>();
            java.util.regex.Matcher m = MATCHER.matcher(body);
            int at = 0;
            while (at < body.length()) {
                if (!m.find(at) || m.start() != at) {
                    throw new IllegalArgumentException("cannot parse label matchers '" + body + "' in " + expr);
                }
                matchers.add(new Matcher(m.group(1), m.group(2), m.group(3)));
                at = m.end();
            }
            return matchers;
        }
    }
}
