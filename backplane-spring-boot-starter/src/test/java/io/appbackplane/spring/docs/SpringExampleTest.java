package io.appbackplane.spring.docs;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.LocalHttp;
import io.appbackplane.spring.docs.example.Inventory;
import io.appbackplane.spring.docs.example.Orders;
import io.appbackplane.spring.docs.example.ShopApplication;
import io.appbackplane.spring.metrics.BackplaneHistograms;
import io.appbackplane.spring.metrics.BackplaneMeters;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs the Spring Boot example of docs/getting-started.md — {@link ShopApplication} configured with
 * the page's application.yml — over real HTTP, checks what the page says about it, and checks the
 * samples of docs/operations.md against the same running application: the actuator JSON (same
 * fields, same names and states), the health details, and the meter names.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpringExampleTest {

    private static final JsonMapper PRETTY = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private ConfigurableApplicationContext context;
    private LocalHttp http;

    @BeforeAll
    void start() {
        DocSnippets.Block yaml = DocSnippets.blocks("yaml").stream()
                .filter(b -> b.page().equals("getting-started")).findFirst().orElseThrow();
        Map<String, Object> properties = new LinkedHashMap<>(DocsSnippetsTest.properties(yaml));
        assertThat(yaml.text().lines().count()).as("the page promises three lines").isEqualTo(3);
        properties.put("server.address", "127.0.0.1");
        properties.put("server.port", "0");
        properties.put("management.endpoint.health.show-details", "always"); // as docs/operations.md shows
        context = new SpringApplicationBuilder(ShopApplication.class).properties(properties).run();
        http = new LocalHttp(((WebServerApplicationContext) context).getWebServer().getPort());
    }

    @AfterAll
    void stop() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void theEndpointsBehaveAsThePageSays() throws Exception {
        Orders orders = context.getBean(Orders.class);
        Inventory inventory = context.getBean(Inventory.class);

        HttpResponse<String> placed = http.postJson("/orders/o-1?sku=apple", "");
        assertThat(placed.statusCode()).as(placed.body()).isEqualTo(200);
        assertThat(placed.body()).isEqualTo("placed o-1");
        assertThat(orders.place("o-2", "pear").get(10, SECONDS)).isEqualTo("out of stock");
        assertThat(inventory.inStock("apple")).isEqualTo(9); // loaded by the INITIALIZING hook, one reserved

        assertThat(orders.status("o-1")).isEqualTo("order o-1 is open");
        orders.record("o-1", "shipped");
        context.publishEvent(new Orders.PriceChanged("apple", 120));
        await().atMost(10, SECONDS).until(() -> orders.audit().size() == 2);
        assertThat(orders.audit()).containsExactlyInAnyOrder("o-1: shipped", "price of apple is now 120");
    }

    @Test
    void aBlockingEndpointCalledOnAWorkerFailsAtOnce() throws Exception {
        io.appbackplane.spring.autoconfigure.BackplaneRegistry registry =
                context.getBean(io.appbackplane.spring.autoconfigure.BackplaneRegistry.class);
        Orders orders = context.getBean(Orders.class);
        var call = registry.get("default").component("orders").orElseThrow()
                .submit("x", 1, ctx -> orders.status("o-9"));
        assertThatThrownBy(() -> call.get(10, SECONDS)).hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("could deadlock");
    }

    @Test
    void theActuatorSampleOfTheOperationsPageHasTheFieldsNamesAndStatesOfARealRun() throws Exception {
        context.getBean(Orders.class).place("o-3", "apple").get(10, SECONDS);
        HttpResponse<String> response = http.get("/actuator/backplane/default");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode live = LocalHttp.json(response);
        System.out.println("GET /actuator/backplane/default\n" + PRETTY.writeValueAsString(live));

        JsonNode sample = PRETTY.readTree(sample("GET /actuator/backplane/default"));
        assertThat(shape(sample)).isEqualTo(shape(live));
    }

    @Test
    void theHealthSampleOfTheOperationsPageHasTheFieldsOfARealRun() {
        HttpResponse<String> response = http.get("/actuator/health/backplane");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode live = LocalHttp.json(response);
        System.out.println("GET /actuator/health/backplane\n" + PRETTY.writeValueAsString(live));
        JsonNode sample = PRETTY.readTree(sample("GET /actuator/health/backplane"));
        assertThat(paths(sample)).isEqualTo(paths(live));
    }

    @Test
    void theMeterTableOfTheOperationsPageNamesExactlyTheStartersMeters() throws Exception {
        Set<String> constants = new TreeSet<>();
        for (Field field : BackplaneMeters.class.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                constants.add((String) field.get(null));
            }
        }
        String page = Files.readString(Path.of("../docs/operations.md"));
        String table = page.substring(page.indexOf("## Meters"), page.indexOf("\n## ", page.indexOf("## Meters") + 1));
        Set<String> documented = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^\\| `(backplane\\.[a-z.]+)`").matcher(table);
        while (m.find()) {
            documented.add(m.group(1));
        }
        // the opt-in histogram timers (backplane.metrics.histograms, off here) are documented in the same section
        Set<String> documentedExpected = new TreeSet<>(constants);
        documentedExpected.add(BackplaneHistograms.ACTION_QUEUE_TIME);
        documentedExpected.add(BackplaneHistograms.ACTION_RUN_TIME);
        assertThat(documented).isEqualTo(documentedExpected);

        JsonNode names = LocalHttp.json(http.get("/actuator/metrics")).get("names");
        Set<String> registered = new TreeSet<>();
        names.forEach(n -> registered.add(n.asString()));
        assertThat(registered).containsAll(constants);
    }

    /** The ```json block of docs/operations.md that the line before it introduces with {@code title}. */
    private static String sample(String title) {
        return DocSnippets.blocks("json").stream()
                .filter(b -> b.page().equals("operations") && b.before().contains(title))
                .findFirst().orElseThrow(() -> new AssertionError("no json sample for " + title + " in docs/operations.md"))
                .text();
    }

    /** Every path of the tree, sorted, with its value for text and the path only for other values (null shown). */
    private static List<String> shape(JsonNode node) {
        List<String> out = new ArrayList<>();
        walk("", node, out, true);
        out.sort(null);
        return out;
    }

    private static List<String> paths(JsonNode node) {
        List<String> out = new ArrayList<>();
        walk("", node, out, false);
        out.sort(null);
        return out;
    }

    private static void walk(String path, JsonNode node, List<String> out, boolean withText) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.properties().iterator();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                walk(path + "/" + field.getKey(), field.getValue(), out, withText);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) { // named elements by name: their order is not part of the contract
                JsonNode element = node.get(i);
                String step = element.isObject() && element.has("name") ? "[" + element.get("name").asString() + "]" : String.valueOf(i);
                walk(path + "/" + step, element, out, withText);
            }
        } else if (node.isString() && withText) {
            out.add(path + "=" + node.asString());
        } else {
            out.add(path + (node.isNull() ? "=null" : ""));
        }
    }
}
