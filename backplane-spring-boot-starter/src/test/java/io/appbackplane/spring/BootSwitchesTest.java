package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.metrics.BackplaneMetricsAutoConfiguration;
import io.appbackplane.spring.observation.BackplaneObservationAutoConfiguration;
import io.appbackplane.spring.observation.BackplaneObservations;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Boot's own switches apply to the backplane's meters and observations, which go through Boot's
 * registries: {@code management.metrics.enable.<prefix>} and {@code
 * management.observations.enable.<prefix>}. ({@code backplane.metrics.enabled} and {@code
 * backplane.observations.enabled} remain for what Boot has no switch for: not building the meter
 * binders, and the observations' opt-in.)
 */
class BootSwitchesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
                    CompositeMeterRegistryAutoConfiguration.class, ObservationAutoConfiguration.class,
                    BackplaneAutoConfiguration.class, BackplaneMetricsAutoConfiguration.class,
                    BackplaneObservationAutoConfiguration.class))
            .withUserConfiguration(App.class)
            .withPropertyValues("backplane.observations.enabled=true");

    @Test
    void managementMetricsEnableFalseRemovesTheBackplaneMeters() {
        runner.run(context -> assertThat(backplaneMeters(context.getBean(MeterRegistry.class))).isNotEmpty());
        runner.withPropertyValues("management.metrics.enable.backplane=false")
                .run(context -> assertThat(backplaneMeters(context.getBean(MeterRegistry.class))).isEmpty());
    }

    @Test
    void managementMetricsEnableOnOnePrefixRemovesOnlyThoseMeters() {
        runner.withPropertyValues("management.metrics.enable.backplane.cpu=false").run(context -> {
            List<String> names = backplaneMeters(context.getBean(MeterRegistry.class));
            assertThat(names).isNotEmpty().noneMatch(name -> name.startsWith("backplane.cpu"));
        });
    }

    @Test
    void managementObservationsEnableFalseSilencesTheActionObservations() {
        runner.run(context -> {
            assertThat(observedAfterOneCall(context)).contains(BackplaneObservations.QUEUE, BackplaneObservations.RUN);
        });
        runner.withPropertyValues("management.observations.enable.backplane=false").run(context -> {
            assertThat(observedAfterOneCall(context)).doesNotContain(BackplaneObservations.QUEUE, BackplaneObservations.RUN);
        });
    }

    private static List<String> observedAfterOneCall(org.springframework.context.ApplicationContext context) throws Exception {
        assertThat(context.getBean(Echo.class).echo("x").get(10, TimeUnit.SECONDS)).isEqualTo("x");
        return context.getBean(Recorder.class).stopped;
    }

    private static List<String> backplaneMeters(MeterRegistry registry) {
        return registry.getMeters().stream().map(meter -> meter.getId().getName()).filter(name -> name.startsWith("backplane."))
                .distinct().toList();
    }

    @AppComponent("echo")
    public static class Echo {
        @Endpoint
        public CompletableFuture<String> echo(String text) {
            return CompletableFuture.completedFuture(text);
        }
    }

    /** Records the observations that stop (a run observation stops before its action's future completes). */
    static final class Recorder implements ObservationHandler<Observation.Context> {
        final List<String> stopped = new CopyOnWriteArrayList<>();

        @Override
        public void onStop(Observation.Context context) {
            stopped.add(context.getName());
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return true;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class App {
        @Bean
        Echo echo() {
            return new Echo();
        }

        @Bean
        Recorder recorder() {
            return new Recorder();
        }
    }
}
