package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import io.appbackplane.spring.autoconfigure.InvalidBackplanePropertyException;
import io.appbackplane.spring.metrics.BackplaneHistograms;
import io.appbackplane.spring.metrics.BackplaneMetricsAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** {@code backplane.metrics.histograms}: percentile timers of every action's queue wait and run time. */
class HistogramsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                    BackplaneAutoConfiguration.class, BackplaneMetricsAutoConfiguration.class))
            .withUserConfiguration(App.class)
            .withPropertyValues("backplane.configs.default.threads=1");

    @Test
    void offByDefault_noHistogramTimers() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(BackplaneHistograms.class);
            context.getBean(Shop.class).buy("a").get(10, TimeUnit.SECONDS);
            MeterRegistry meters = context.getBean(SimpleMeterRegistry.class);
            assertThat(meters.find(BackplaneHistograms.ACTION_RUN_TIME).timers()).isEmpty();
            assertThat(meters.find(BackplaneHistograms.ACTION_QUEUE_TIME).timers()).isEmpty();
        });
    }

    @Test
    void on_everyActionIsRecordedWithTheConfiguredPercentilesAndAHistogram() {
        runner.withPropertyValues("backplane.metrics.histograms=true", "backplane.metrics.percentiles=0.5,0.99").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(BackplaneHistograms.class);
            Shop shop = context.getBean(Shop.class);
            for (int i = 0; i < 10; i++) {
                shop.buy("item" + i).get(10, TimeUnit.SECONDS);
            }
            MeterRegistry meters = context.getBean(SimpleMeterRegistry.class);
            Timer run = meters.get(BackplaneHistograms.ACTION_RUN_TIME).tag("backplane", "default").tag("component", "shop").timer();
            // the component's own state transitions are actions too: the timers count what the core counts
            long actionsRun = context.getBean(BackplaneRegistry.class).get("default").statistics().components().stream()
                    .filter(c -> c.name().equals("shop")).findFirst().orElseThrow().counts().actionsRun();
            assertThat(actionsRun).isGreaterThanOrEqualTo(10);
            assertThat(run.count()).isEqualTo(actionsRun);
            var queueTimers = meters.find(BackplaneHistograms.ACTION_QUEUE_TIME).tag("component", "shop").timers();
            assertThat(queueTimers).allSatisfy(t -> assertThat(t.getId().getTag("priority")).isNotNull());
            assertThat(queueTimers.stream().mapToLong(Timer::count).sum()).isEqualTo(actionsRun);
            // @AppComponent endpoints run at priority 1 by default
            assertThat(meters.get(BackplaneHistograms.ACTION_QUEUE_TIME).tag("component", "shop").tag("priority", "1").timer().count())
                    .isGreaterThanOrEqualTo(10);
            var snapshot = run.takeSnapshot();
            assertThat(Arrays.stream(snapshot.percentileValues()).map(ValueAtPercentile::percentile)).containsExactly(0.5, 0.99);
            PrometheusMeterRegistry prometheus = context.getBean(PrometheusMeterRegistry.class);
            assertThat(prometheus.scrape()).as("a percentile histogram is published to a registry that takes one")
                    .contains("backplane_action_run_time_seconds_bucket{backplane=\"default\",component=\"shop\",le=")
                    .contains("backplane_action_queue_time_seconds_bucket{backplane=\"default\",component=\"shop\",priority=\"1\",le=");
        });
    }

    @Test
    void aPercentileOutsideZeroToOne_failsStartUpNamingTheProperty() {
        runner.withPropertyValues("backplane.metrics.histograms=true", "backplane.metrics.percentiles=0.5,99").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(InvalidBackplanePropertyException.class)
                    .hasMessageContaining("backplane.metrics.percentiles[1]").hasMessageContaining("allowed: a number from 0 to 1");
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class App {
        @Bean
        SimpleMeterRegistry simpleMeterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        PrometheusMeterRegistry prometheusMeterRegistry() {
            return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        }

        @Bean
        Shop shop() {
            return new Shop();
        }
    }

    @AppComponent
    static class Shop {
        @Endpoint
        CompletableFuture<String> buy(@ObjectKey String item) {
            return CompletableFuture.completedFuture(item);
        }
    }
}
