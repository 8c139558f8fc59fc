package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;

/** A pricing run's id cannot be guessed from another's: nobody cancels a run they were not told about; a counter id is not even valid. */
// A context of its own (the property only tells it apart), so that no other class's paused context is resumed for it.
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.test-context=pricing-run-ids")
@ActiveProfiles("test")
class PricingRunIdsTest {

    @LocalServerPort
    int port;

    @Test
    void runIdsAreRandomNotACounter_andACounterIdFindsNothingToCancel() {
        Http http = new Http(port);
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> started = http.post("/pricing/runs?items=1", "");
            assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
            String id = Http.json(started).get("id").asString();
            // 128 random bits as unpadded base64url: 22 characters after the prefix
            assertThat(id).matches("run-[A-Za-z0-9_-]{22}");
            assertThat(started.headers().firstValue("Location")).hasValue("/pricing/runs/" + id);
            ids.add(id.substring(4, 12));
        }
        assertThat(ids).as("no shared prefix, as a counter would give").hasSize(3);

        for (int n = 1; n <= 3; n++) {
            HttpResponse<String> cancel = http.delete("/pricing/runs/run-" + n);
            assertThat(cancel.statusCode()).as(cancel.body()).isEqualTo(400);
            assertThat(Http.json(cancel).get("field").asString()).isEqualTo("id");
        }
    }
}
