package io.appbackplane.spring.liveview;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * A native image carries the live view's resources: the hints registered through
 * {@code META-INF/spring/aot.factories} (as Spring's AOT processing loads them) name the page, its
 * script and style sheet, and the Chart.js WebJar's script in whatever version the build has.
 */
class LiveViewRuntimeHintsTest {

    @Test
    void theAotFactoriesRegisterTheLiveViewsResources() {
        RuntimeHints hints = new RuntimeHints();
        SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
                .load(RuntimeHintsRegistrar.class)
                .forEach(registrar -> registrar.registerHints(hints, getClass().getClassLoader()));

        for (String resource : new String[] {"io/appbackplane/spring/liveview/live-view.html",
                "io/appbackplane/spring/liveview/live-view.js", "io/appbackplane/spring/liveview/live-view.css",
                "META-INF/resources/webjars/chart.js/4.5.1/dist/chart.umd.min.js"}) {
            assertThat(RuntimeHintsPredicates.resource().forResource(resource)).as(resource).accepts(hints);
        }
        assertThat(RuntimeHintsPredicates.resource().forResource("io/appbackplane/spring/liveview/other.txt")).rejects(hints);
    }
}
