package io.appbackplane.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.ComponentState;
import io.appbackplane.ManualClock;
import io.appbackplane.Stepper;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

/**
 * {@code @SpringBootTest} with {@code @AutoConfigureBackplane}: start-up brings the components up on
 * the thread that starts the context (a start-up timeout of 1 ms would fail it otherwise), and work,
 * timers and their order are driven by the test through the {@link Stepper} and {@link ManualClock}
 * beans.
 */
@SpringBootTest(classes = StepModeSpringBootTest.App.class, properties = "backplane.startup-timeout=1ms")
@AutoConfigureBackplane
class StepModeSpringBootTest {

    @Autowired
    Orders orders;

    @Autowired
    Stepper stepper;

    @Autowired
    ManualClock clock;

    @Autowired
    BackplaneRegistry registry;

    @Test
    void componentsAreUpWhenTheContextHasStartedHavingRunTheirHooksOnTheStartingThread() {
        assertThat(registry.get("default").component("orders").orElseThrow().state()).isEqualTo(ComponentState.PRIMARY);
        assertThat(orders.states()).startsWith("INITIALIZING on main", "PRIMARY on main");
    }

    @Test
    void workRunsOnlyAsTheTestStepsItAndTimersOnlyAsTheClockAdvances() {
        orders.log().clear();
        CompletableFuture<String> placed = orders.place("o-1");
        assertThat(placed).as("queued, not run: no worker threads").isNotDone();

        assertThat(stepper.runUntilIdle()).isEqualTo(1);
        assertThat(placed).isCompletedWithValue("placed o-1");

        clock.advance(Duration.ofSeconds(2));
        assertThat(stepper.runUntilIdle()).as("one firing per period; no backlog").isEqualTo(1);
        assertThat(orders.log()).containsExactly("placed o-1", "tick");
    }

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import(Orders.class)
    static class App {}
}
