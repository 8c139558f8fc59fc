package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.ComponentState;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.OnState;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneFailureAnalyzer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Dependencies across backplanes: a component of backplane "bulk" depends on one of "default" — it
 * comes up after it and goes down before it, with both backplanes' real workers; a cycle through both
 * backplanes fails start-up naming the components.
 */
class CrossBackplaneLifecycleTest {

    private final Log log = new Log();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class))
            .withBean(Log.class, () -> log)
            .withPropertyValues("backplane.configs.default.threads=1", "backplane.instances.bulk.threads=1",
                    "spring.lifecycle.timeout-per-shutdown-phase=5s");

    @Test
    void aBulkComponentComesUpAfterItsDependencyInDefaultAndGoesDownBeforeIt() {
        runner.withUserConfiguration(Linked.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(log.entries).containsSubsequence("customers INITIALIZING", "reports INITIALIZING")
                    .containsSubsequence("customers PRIMARY", "reports PRIMARY");
            log.entries.clear();
        });
        assertThat(log.entries).containsExactly("reports DOWN", "customers DOWN");
    }

    @Test
    void aCycleThroughTwoBackplanesFailsStartUpNamingItsComponents() {
        runner.withUserConfiguration(Cyclic.class).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new BackplaneFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("customers", "reports");
            assertThat(analysis.getAction()).contains("Break the cycle");
            assertThat(log.entries).isEmpty();
        });
    }

    static class Log {
        final List<String> entries = new CopyOnWriteArrayList<>();
    }

    @Configuration(proxyBeanMethods = false)
    static class Linked {
        @Bean
        Customers customers(Log log) {
            return new Customers(log);
        }

        @Bean
        Reports reports(Log log) {
            return new Reports(log);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Cyclic {
        @Bean
        CyclicCustomers customers(Log log) {
            return new CyclicCustomers(log);
        }

        @Bean
        Reports reports(Log log) {
            return new Reports(log);
        }
    }

    abstract static class Logging {
        private final Log log;
        private final String name;

        Logging(Log log, String name) {
            this.log = log;
            this.name = name;
        }

        @OnState({ComponentState.INITIALIZING, ComponentState.PRIMARY, ComponentState.DOWN})
        void entered(ComponentState from, ComponentState to) {
            log.entries.add(name + " " + to);
        }
    }

    @AppComponent
    static class Customers extends Logging {
        Customers(Log log) {
            super(log, "customers");
        }
    }

    @AppComponent(dependsOn = "reports")
    static class CyclicCustomers extends Logging {
        CyclicCustomers(Log log) {
            super(log, "customers");
        }
    }

    @AppComponent(backplane = "bulk", dependsOn = "customers")
    static class Reports extends Logging {
        Reports(Log log) {
            super(log, "reports");
        }
    }
}
