package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.appbackplane.ComponentState;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.OnState;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A start-up that timed out because a state hook never finishes ends promptly: the application's
 * run fails with the start-up timeout's message soon after {@code backplane.startup-timeout}, not
 * after the shutdown phase's timeout as well. What came up on the other backplane still goes DOWN
 * (its DOWN hook runs), and the log says the stuck hook's thread was left running.
 */
@ExtendWith(OutputCaptureExtension.class)
class StuckStartupHookTest {

    /** Released when the test ends, so that the stuck hook's worker thread does not outlive the test class. */
    static final CountDownLatch RELEASE = new CountDownLatch(1);

    static final List<String> LOG = new CopyOnWriteArrayList<>();

    /** When the lifecycle began bringing the components up (base's PRIMARY hook): the start-up timeout runs from about then. */
    static volatile long upAt;

    @AfterEach
    void releaseTheStuckHook() {
        RELEASE.countDown();
    }

    @Test
    void aHookThatNeverFinishesFailsTheRunSoonAfterTheStartupTimeoutAndLeavesItsThread(CapturedOutput output) {
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);

        Throwable failure = catchThrowable(() -> application.run(
                "--backplane.startup-timeout=2s",
                "--spring.lifecycle.timeout-per-shutdown-phase=10s",
                "--backplane.instances.stuck.threads=1"));

        // From the bring-up, not from run(): creating the context first takes as long as the machine makes it.
        Duration took = Duration.ofNanos(System.nanoTime() - upAt);
        assertThat(failure).as("the run fails").isNotNull()
                .hasStackTraceContaining("did not reach PRIMARY within backplane.startup-timeout (PT2S)")
                .hasStackTraceContaining("'ledger'");
        // The take-down waited the shutdown phase's timeout (10 s) on top of the start-up timeout (2 s)
        // before; a generous bound that still tells the two apart.
        assertThat(took).as("from the bring-up to the run's failure").isLessThan(Duration.ofSeconds(8));
        assertThat(LOG).as("what came up went DOWN").containsExactly("base PRIMARY", "base DOWN");
        assertThat(output.getAll()).contains("'ledger'", "left running");
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(BackplaneAutoConfiguration.class)
    static class App {
        @Bean
        Base base() {
            return new Base();
        }

        @Bean
        Ledger ledger() {
            return new Ledger();
        }
    }

    /** Comes up on the default backplane. */
    @AppComponent
    static class Base {
        @OnState({ComponentState.PRIMARY, ComponentState.DOWN})
        void entered(ComponentState from, ComponentState to) {
            if (to == ComponentState.PRIMARY) {
                upAt = System.nanoTime();
            }
            LOG.add("base " + to);
        }
    }

    /** On its own backplane; its PRIMARY hook does not finish until the test ends. */
    @AppComponent(backplane = "stuck")
    static class Ledger {
        @OnState(ComponentState.PRIMARY)
        void up() throws InterruptedException {
            RELEASE.await(60, TimeUnit.SECONDS);
        }
    }
}
