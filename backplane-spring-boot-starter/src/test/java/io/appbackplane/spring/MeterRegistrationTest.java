package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.metrics.BackplaneMetricsAutoConfiguration;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Every backplane meter is registered exactly once with every meter registry, also when Spring Boot
 * puts several registries behind its composite. Micrometer registers a meter id only once per
 * registry and reports a second registration ("has been already registered ... will be ignored"),
 * so the test reads both the registries and that report.
 */
class MeterRegistrationTest {

    /** Micrometer's double-registration report: WARN the first time in a JVM, DEBUG afterwards. */
    private static final String DOUBLE_REGISTRATION = "has been already registered";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                    BackplaneAutoConfiguration.class, BackplaneMetricsAutoConfiguration.class))
            .withUserConfiguration(App.class)
            .withPropertyValues("backplane.configs.default.threads=1", "backplane.instances.batch.threads=1",
                    "backplane.components.reports.backplane=batch");

    private final Logger micrometer = (Logger) LoggerFactory.getLogger(MeterRegistry.class);
    private final ListAppender<ILoggingEvent> micrometerLog = new ListAppender<>();
    private Level micrometerLevel;

    @BeforeEach
    void captureMicrometersReports() {
        micrometerLevel = micrometer.getLevel();
        micrometer.setLevel(Level.DEBUG);
        micrometerLog.start();
        micrometer.addAppender(micrometerLog);
    }

    @AfterEach
    void stopCapturing() {
        micrometer.detachAppender(micrometerLog);
        micrometer.setLevel(micrometerLevel);
    }

    @Test
    void withOneRegistryEveryMeterIsRegisteredOnce() {
        runner.withBean("onlyRegistry", SimpleMeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBeansOfType(MeterRegistry.class)).containsOnlyKeys("onlyRegistry");

            assertEveryBackplaneMeterOnce(context.getBean("onlyRegistry", MeterRegistry.class));
            assertThat(doubleRegistrations()).isEmpty();
        });
    }

    @Test
    void withTwoRegistriesBehindBootsCompositeEachHasEveryMeterOnce() {
        runner.withBean("first", SimpleMeterRegistry.class, SimpleMeterRegistry::new)
                .withBean("second", SimpleMeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    MeterRegistry composite = context.getBean(MeterRegistry.class);
                    assertThat(composite).as("Boot's composite").isInstanceOf(CompositeMeterRegistry.class);
                    assertThat(((CompositeMeterRegistry) composite).getRegistries())
                            .containsExactlyInAnyOrder(context.getBean("first", MeterRegistry.class),
                                    context.getBean("second", MeterRegistry.class));

                    List<Meter.Id> all = assertEveryBackplaneMeterOnce(composite);
                    for (String name : List.of("first", "second")) {
                        List<Meter.Id> ids = assertEveryBackplaneMeterOnce(context.getBean(name, MeterRegistry.class));
                        assertThat(ids).as(name).containsExactlyInAnyOrderElementsOf(all);
                    }
                    assertThat(doubleRegistrations()).as("meters registered twice with one registry").isEmpty();
                });
    }

    /** The backplane meters of {@code meters}: each id once, every documented name for both backplanes. */
    private static List<Meter.Id> assertEveryBackplaneMeterOnce(MeterRegistry meters) {
        List<Meter.Id> ids = meters.getMeters().stream()
                .map(Meter::getId)
                .filter(id -> id.getName().startsWith("backplane."))
                .toList();
        assertThat(ids).doesNotHaveDuplicates();
        for (String backplane : List.of("default", "batch")) {
            for (String name : MetricsTest.meterNames()) {
                assertThat(ids).as("%s of backplane %s", name, backplane)
                        .anyMatch(id -> id.getName().equals(name) && backplane.equals(id.getTag("backplane")));
            }
        }
        assertThat(ids).as("the endpoint's meters").filteredOn(id -> "sell".equals(id.getTag("endpoint"))).hasSize(4);
        return ids;
    }

    private List<String> doubleRegistrations() {
        return micrometerLog.list.stream()
                .map(ILoggingEvent::getFormattedMessage)
                .filter(message -> message.contains(DOUBLE_REGISTRATION) && message.contains("backplane."))
                .toList();
    }

    @Configuration(proxyBeanMethods = false)
    static class App {
        @Bean
        Shop shop() {
            return new Shop();
        }

        @Bean
        Reports reports() {
            return new Reports();
        }
    }

    @AppComponent
    static class Shop {
        @Endpoint
        CompletableFuture<String> sell(String item) {
            return CompletableFuture.completedFuture(item);
        }
    }

    /** On backplane "batch" (backplane.components.reports.backplane). */
    @AppComponent
    static class Reports {
        @Endpoint
        CompletableFuture<String> print(String report) {
            return CompletableFuture.completedFuture(report);
        }
    }
}
