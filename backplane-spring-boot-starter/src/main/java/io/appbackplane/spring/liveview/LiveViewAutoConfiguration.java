package io.appbackplane.spring.liveview;

import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import io.appbackplane.spring.autoconfigure.InvalidBackplanePropertyException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * The live view ({@code /actuator/backplaneview}), when {@code backplane.live-view.enabled=true},
 * Actuator is present and the {@code backplaneview} endpoint is available (exposed and not
 * disabled). Needs the Chart.js WebJar ({@code org.webjars.npm:chart.js}) on the class path.
 */
@AutoConfiguration(after = BackplaneAutoConfiguration.class)
@ConditionalOnClass({WebEndpoint.class, ConditionalOnAvailableEndpoint.class})
@ConditionalOnBean(BackplaneRegistry.class)
@ConditionalOnProperty(prefix = "backplane.live-view", name = "enabled", havingValue = "true")
@ConditionalOnAvailableEndpoint(LiveViewEndpoint.class)
@EnableConfigurationProperties(LiveViewProperties.class)
public final class LiveViewAutoConfiguration {

    static final String CHART_JS = "classpath*:META-INF/resources/webjars/chart.js/*/dist/chart.umd.min.js";

    @Bean
    @ConditionalOnMissingBean
    SlowActionLog backplaneLiveViewSlowActions() {
        return new SlowActionLog(Clock.systemUTC());
    }

    @Bean
    @ConditionalOnMissingBean
    LiveViewSampler backplaneLiveViewSampler(BackplaneRegistry registry, SlowActionLog slowActions, LiveViewProperties properties) {
        Duration history = properties.getHistory();
        if (history == null || history.compareTo(LiveViewProperties.MIN_HISTORY) < 0
                || history.compareTo(LiveViewProperties.MAX_HISTORY) > 0) {
            throw new InvalidBackplanePropertyException("backplane.live-view.history", history, "allowed: 10s..1h", null);
        }
        return new LiveViewSampler(registry, slowActions, history, Clock.systemUTC(), System::nanoTime);
    }

    @Bean
    @ConditionalOnMissingBean
    LiveViewEndpoint backplaneLiveViewEndpoint(LiveViewSampler sampler, LiveViewProperties properties) {
        return new LiveViewEndpoint(sampler, chartJs(), properties.getShowValues(), properties.getRoles());
    }

    /** Chart.js from its WebJar, whichever version is on the class path (the newest if several are). */
    private static Resource chartJs() {
        Resource[] found;
        try {
            found = new PathMatchingResourcePatternResolver(LiveViewAutoConfiguration.class.getClassLoader()).getResources(CHART_JS);
        } catch (IOException e) {
            throw new UncheckedIOException("could not look for the Chart.js WebJar", e);
        }
        if (found.length == 0) {
            throw new IllegalStateException("backplane.live-view.enabled=true, but the Chart.js WebJar that draws the"
                    + " live view's charts is not on the class path: add the dependency org.webjars.npm:chart.js"
                    + " (4.x, for example 4.5.1), or set backplane.live-view.enabled=false");
        }
        Resource newest = found[0];
        for (Resource r : found) {
            if (String.valueOf(r.getDescription()).compareTo(String.valueOf(newest.getDescription())) > 0) {
                newest = r;
            }
        }
        return newest;
    }
}
