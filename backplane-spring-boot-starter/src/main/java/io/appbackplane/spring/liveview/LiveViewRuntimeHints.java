package io.appbackplane.spring.liveview;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * The live view's resources for a native image, where only resources named in hints exist: its
 * page, script and style sheet (read by {@link LiveViewEndpoint}), and the Chart.js WebJar's script
 * that it serves (found by {@link LiveViewAutoConfiguration#CHART_JS}). Registered through
 * {@code META-INF/spring/aot.factories}, so a build whose AOT processing ran with the live view
 * switched off still carries them.
 */
final class LiveViewRuntimeHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.resources()
                .registerPattern("io/appbackplane/spring/liveview/live-view.html")
                .registerPattern("io/appbackplane/spring/liveview/live-view.js")
                .registerPattern("io/appbackplane/spring/liveview/live-view.css")
                .registerPattern("META-INF/resources/webjars/chart.js/*/dist/chart.umd.min.js");
    }
}
