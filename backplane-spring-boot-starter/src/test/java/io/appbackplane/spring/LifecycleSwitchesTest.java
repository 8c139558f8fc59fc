package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.ComponentState;
import io.appbackplane.spring.actuate.BackplaneActuatorAutoConfiguration;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.OnState;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import io.appbackplane.spring.metrics.BackplaneMetricsAutoConfiguration;
import io.appbackplane.spring.web.BackplaneRejectionHandler;
import io.appbackplane.spring.web.BackplaneWebAutoConfiguration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.ApplicationContextException;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * How the starter fits Spring's lifecycle and bean switches, which an application sets for reasons
 * of its own: lazy initialization, {@code backplane.enabled=false}, {@code
 * backplane.web.enabled=false}, and a context stopped and started again.
 */
class LifecycleSwitchesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class, BackplaneActuatorAutoConfiguration.class,
                    BackplaneMetricsAutoConfiguration.class))
            .withUserConfiguration(App.class)
            .withPropertyValues("backplane.configs.default.threads=1", "spring.lifecycle.timeout-per-shutdown-phase=2s");

    @Test
    void underLazyInitializationComponentsAreStillInstalledAndBroughtUpAtStartUp() {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties("spring.main.lazy-initialization=true", "backplane.configs.default.threads=1")
                .run()) {
            BackplaneRegistry registry = context.getBean(BackplaneRegistry.class);
            assertThat(registry.get("default").component("counter")).as("installed at start-up").isPresent();
            assertThat(registry.get("default").component("counter").orElseThrow().state()).isEqualTo(ComponentState.PRIMARY);
            assertThat(context.getBean(Counter.class).entered()).containsExactly("INITIALIZING", "PRIMARY");
            assertThat(context.getBean(Counter.class).where()).startsWith("backplane-");
        }
    }

    @Test
    void backplaneEnabledFalseBuildsNoBackplaneAndLeavesComponentsPlainBeans() {
        runner.withPropertyValues("backplane.enabled=false").run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(BackplaneRegistry.class);
            assertThat(context.getBeanNamesForType(org.springframework.context.SmartLifecycle.class)).isEmpty();
            assertThat(context.getBean(Counter.class).where()).as("runs in the caller's thread")
                    .isEqualTo(Thread.currentThread().getName());
        });
    }

    @Test
    void aStoppedContextCannotBeStartedAgainAndSaysWhy() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            context.stop();
            BackplaneRegistry registry = context.getBean(BackplaneRegistry.class);
            assertThat(registry.get("default").isShutdown()).isTrue();

            assertThatThrownBy(context::start).isInstanceOf(ApplicationContextException.class)
                    .hasStackTraceContaining("were stopped and cannot start again")
                    .hasStackTraceContaining("close it and create a new one");
        });
    }

    @Test
    void theRejectionAdviceHasTheConfiguredOrderAndCanBeSwitchedOff() {
        WebApplicationContextRunner web = new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class, BackplaneWebAutoConfiguration.class))
                .withPropertyValues("backplane.configs.default.threads=1");
        web.withPropertyValues("backplane.web.order=-7").run(context ->
                assertThat(context.getBean(BackplaneRejectionHandler.class).getOrder()).isEqualTo(-7));
        web.withPropertyValues("backplane.web.enabled=false").run(context ->
                assertThat(context).hasNotFailed().doesNotHaveBean(BackplaneRejectionHandler.class));
        web.withPropertyValues("backplane.enabled=false").run(context ->
                assertThat(context).hasNotFailed().doesNotHaveBean(BackplaneRejectionHandler.class));
    }

    @SpringBootConfiguration(proxyBeanMethods = false)
    @ImportAutoConfiguration(BackplaneAutoConfiguration.class)
    static class App {
        @Bean
        Counter counter() {
            return new Counter();
        }
    }

    @AppComponent
    static class Counter {
        private final List<String> entered = new CopyOnWriteArrayList<>();

        /** A method, not the field: the bean is the component's class proxy. */
        List<String> entered() {
            return entered;
        }

        @OnState({ComponentState.INITIALIZING, ComponentState.PRIMARY})
        void entered(ComponentState from, ComponentState to) {
            entered.add(to.name());
        }

        /** The thread the endpoint runs on (a blocking endpoint: the caller waits for it). */
        @Endpoint
        String where() {
            return Thread.currentThread().getName();
        }
    }
}
