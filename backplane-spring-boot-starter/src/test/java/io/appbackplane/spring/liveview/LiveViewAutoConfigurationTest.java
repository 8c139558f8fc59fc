package io.appbackplane.spring.liveview;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.spring.actuate.BackplaneActuatorAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneFailureAnalyzer;
import io.appbackplane.spring.autoconfigure.InvalidBackplanePropertyException;
import io.appbackplane.spring.metrics.BackplaneMetricsAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;

/** When the live view is there: opt-in, and only where its Actuator endpoint is available. */
class LiveViewAutoConfigurationTest {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class, BackplaneActuatorAutoConfiguration.class,
                    BackplaneMetricsAutoConfiguration.class, LiveViewAutoConfiguration.class, EndpointAutoConfiguration.class,
                    WebEndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=*");

    @Test
    void offByDefault_evenWhenEveryEndpointIsExposed() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(LiveViewEndpoint.class).doesNotHaveBean(LiveViewSampler.class)
                    .doesNotHaveBean(SlowActionLog.class);
        });
    }

    @Test
    void onWhenEnabledAndExposed_withItsSamplerAndSlowActionListener() {
        runner.withPropertyValues("backplane.live-view.enabled=true").run(context -> {
            assertThat(context).hasSingleBean(LiveViewEndpoint.class).hasSingleBean(LiveViewSampler.class)
                    .hasSingleBean(SlowActionLog.class);
            assertThat(context.getBean(LiveViewSampler.class).isRunning()).isTrue();
        });
    }

    @Test
    void offWhenEnabledButTheEndpointIsNotExposed() {
        runner.withPropertyValues("backplane.live-view.enabled=true", "management.endpoints.web.exposure.include=backplane")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LiveViewEndpoint.class)
                        .doesNotHaveBean(LiveViewSampler.class));
    }

    @Test
    void offWithoutActuator() {
        runner.withPropertyValues("backplane.live-view.enabled=true").withClassLoader(new FilteredClassLoader(WebEndpoint.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LiveViewSampler.class));
    }

    @Test
    void aHistoryOutsideItsRangeFailsStartUpNamingThePropertyAndTheRange() {
        runner.withPropertyValues("backplane.live-view.enabled=true", "backplane.live-view.history=2h").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(InvalidBackplanePropertyException.class)
                    .hasMessageContainingAll("backplane.live-view.history", "10s..1h");
            FailureAnalysis analysis = new BackplaneFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("backplane.live-view.history", "allowed: 10s..1h");
        });
    }
}
