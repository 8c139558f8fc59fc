package io.appbackplane.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.Backplane;
import io.appbackplane.ManualClock;
import io.appbackplane.Stepper;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Step mode across a context's whole life, with {@code backplane.test.step-mode=true} and with a
 * step-mode registry the application declares itself (the way getting-started.md showed before this
 * artifact, which used to wait for the whole start-up timeout and fail).
 */
class StepModeContextTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class, BackplaneTestAutoConfiguration.class))
            .withUserConfiguration(OrdersConfig.class)
            .withPropertyValues("backplane.startup-timeout=1ms");

    @Test
    void everyConfiguredBackplaneIsBuiltInStepModeOnTheOneManualClock() {
        runner.withPropertyValues("backplane.test.step-mode=true", "backplane.instances.bulk.priorities=4").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(Stepper.class).hasSingleBean(ManualClock.class);
            BackplaneRegistry registry = context.getBean(BackplaneRegistry.class);
            assertThat(registry.all()).containsOnlyKeys("default", "bulk");
            for (Backplane backplane : registry.all().values()) {
                assertThat(backplane.clock()).isSameAs(context.getBean(ManualClock.class));
                assertThat(backplane.stepper()).as(backplane.name() + " is in step mode").isNotNull();
            }
        });
    }

    @Test
    void closingTheContextDrainsAcceptedWorkAndTakesTheComponentsDownOnTheClosingThread() {
        runner.withPropertyValues("backplane.test.step-mode=true").run(context -> {
            Orders orders = context.getBean(Orders.class);
            Backplane backplane = context.getBean(BackplaneRegistry.class).get("default");
            CompletableFuture<String> neverStepped = orders.place("o-3");

            context.getSourceApplicationContext().close();

            assertThat(orders.states()).contains("DOWN on " + Thread.currentThread().getName());
            assertThat(backplane.isShutdown()).isTrue();
            assertThat(neverStepped).as("accepted work drains: stopping steps it").isCompletedWithValue("placed o-3");
        });
    }

    @Test
    void aStepModeRegistryTheApplicationDeclaresComesUpAtOnceToo() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class))
                .withUserConfiguration(OrdersConfig.class, OwnRegistry.class)
                .withPropertyValues("backplane.startup-timeout=1ms")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(Orders.class).states()).startsWith("INITIALIZING on main", "PRIMARY on main");
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class OrdersConfig {
        @Bean
        Orders orders() {
            return new Orders();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnRegistry {
        @Bean
        BackplaneRegistry backplaneRegistry() {
            return BackplaneRegistry.of(Backplane.builder("default").clock(new ManualClock()).stepMode().build());
        }
    }
}
