package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import tools.jackson.databind.JsonNode;

/**
 * Bad input to the order desk, over real HTTP: every kind answers 400 with a ProblemDetail that
 * names the field and the values it allows, and echoes at most a bounded prefix of what was sent.
 */
// A context of its own (the property only tells it apart), so that no other class's paused context is resumed for it.
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.test-context=request-validation")
@ActiveProfiles("test")
class RequestValidationTest {

    /** Far more than any problem body needs; a body that echoes a 10,000-character input is longer. */
    private static final int BODY_BOUND = 1_000;

    @LocalServerPort
    int port;

    Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    @Test
    void aFractionalQuantityIsRejectedNotRoundedDown() {
        JsonNode problem = badRequest(http.post("/orders", "{\"item\":\"sku-0001\",\"quantity\":2.5}"));

        assertNamesQuantity(problem);
        assertThat(problem.get("detail").asString()).contains("2.5");
    }

    @Test
    void quantitiesOfTheWrongTypeOrOutOfRangeNameTheFieldAndItsRange() {
        for (String quantity : new String[] {"\"two\"", "1e12", "[2]", "{\"n\":2}", "0", "1001", "-3", "true"}) {
            JsonNode problem = badRequest(http.post("/orders", "{\"item\":\"sku-0001\",\"quantity\":" + quantity + "}"));
            assertNamesQuantity(problem);
        }
    }

    @Test
    void aMissingQuantityOrItemNamesTheField() {
        assertNamesQuantity(badRequest(http.post("/orders", "{\"item\":\"sku-0001\"}")));

        JsonNode noItem = badRequest(http.post("/orders", "{\"quantity\":1}"));
        assertThat(noItem.get("field").asString()).isEqualTo("item");
        assertThat(noItem.get("detail").asString()).contains("'item'", "sku-0001");

        JsonNode itemArray = badRequest(http.post("/orders", "{\"item\":[\"sku-0001\"],\"quantity\":1}"));
        assertThat(itemArray.get("field").asString()).isEqualTo("item");
    }

    @Test
    void noBodyOrMalformedJsonDescribesTheExpectedBody() {
        for (String body : new String[] {"", "{\"item\":", "not json", "[]", "42"}) {
            JsonNode problem = badRequest(http.post("/orders", body));
            assertThat(problem.get("detail").asString()).as(body).contains("'item'", "'quantity'", "1..1000");
        }
    }

    @Test
    void aHugeUnknownItemIsEchoedOnlyAsABoundedPrefix() {
        String huge = "x".repeat(10_000);
        HttpResponse<String> response = http.post("/orders", Http.order(huge, 1));
        JsonNode problem = badRequest(response);

        assertThat(response.body().length()).isLessThan(BODY_BOUND);
        assertThat(problem.get("field").asString()).isEqualTo("item");
        assertThat(problem.get("detail").asString()).contains("xxxxxxxx", "10000 characters").doesNotContain("x".repeat(100));
    }

    @Test
    void anUnknownItemNamesTheCatalogue() {
        JsonNode problem = badRequest(http.post("/orders", Http.order("no-such-sku", 1)));

        assertThat(problem.get("field").asString()).isEqualTo("item");
        assertThat(problem.get("detail").asString()).contains("no-such-sku", "sku-0001");
    }

    @Test
    void aBadWaitParameterNamesItsValues() {
        JsonNode problem = badRequest(http.post("/orders?wait=maybe", Http.order("sku-0001", 1)));

        assertThat(problem.get("field").asString()).isEqualTo("wait");
        assertThat(problem.get("detail").asString()).contains("true", "false");
    }

    @Test
    void anOrderIdWithAnEncodedSlashIsAProblemDetailNamingTheIdFormat() {
        JsonNode problem = badRequest(http.get("/orders/a%2Fb"));

        assertThat(problem.get("field").asString()).isEqualTo("id");
        assertThat(problem.get("detail").asString()).contains("order-");
    }

    @Test
    void aHugeOrderIdIsEchoedOnlyAsABoundedPrefix() {
        HttpResponse<String> response = http.get("/orders/" + "y".repeat(5_000));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body().length()).isLessThan(BODY_BOUND);
    }

    @Test
    void pricingRunParametersNameTheirRanges() {
        for (Map.Entry<String, String> bad : Map.of(
                "/pricing/runs?items=lots", "items",
                "/pricing/runs?items=0", "items",
                "/pricing/runs", "items",
                "/pricing/runs?items=10&inFlight=1.5", "inFlight",
                "/pricing/runs?items=10&inFlight=0", "inFlight").entrySet()) {
            JsonNode problem = badRequest(http.post(bad.getKey(), ""));
            assertThat(problem.get("field").asString()).as(bad.getKey()).isEqualTo(bad.getValue());
            assertThat(problem.get("detail").asString()).as(bad.getKey()).containsPattern("1\\.\\.\\d");
        }
    }

    private static void assertNamesQuantity(JsonNode problem) {
        assertThat(problem.get("field").asString()).isEqualTo("quantity");
        assertThat(problem.get("detail").asString()).contains("'quantity'", "1..1000");
    }

    /** Asserts a 400 ProblemDetail with a bounded body; returns it. */
    static JsonNode badRequest(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).as(response.body()).get().asString()
                .startsWith("application/problem+json");
        assertThat(response.body().length()).isLessThan(BODY_BOUND);
        JsonNode problem = Http.json(response);
        assertThat(problem.get("status").asInt()).isEqualTo(400);
        return problem;
    }
}
