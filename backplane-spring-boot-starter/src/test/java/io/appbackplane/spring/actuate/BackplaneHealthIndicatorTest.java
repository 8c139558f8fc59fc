package io.appbackplane.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.ComponentSpec;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * Stall detection of {@link BackplaneHealthIndicator} on a step-mode backplane (actions run only
 * when the test steps them) and a manual clock: no threads, no sleeping.
 */
class BackplaneHealthIndicatorTest {

    private static final Duration STALL_TIMEOUT = Duration.ofSeconds(30);

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final Backplane backplane = Backplane.builder("bp").stepMode().build();
    private final BackplaneComponent orders = backplane.install(ComponentSpec.named("orders"));
    private final BackplaneHealthIndicator indicator = new BackplaneHealthIndicator(registryOf(backplane), STALL_TIMEOUT, nanos::get);

    @AfterEach
    void close() {
        backplane.close();
    }

    @Test
    void readyWorkThatRunsNothingForTheStallTimeoutIsDown() {
        orders.submit("o-1", 1, ctx -> "done");
        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);

        advance(STALL_TIMEOUT.minusNanos(1));
        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);

        advance(Duration.ofNanos(1));
        Health health = indicator.health();
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(detail(health)).containsEntry("readyObjects", 1)
                .containsEntry("stalled", "ready work but no action ran for PT30S");
    }

    @Test
    void anActionRunningRestartsTheStallClock() {
        orders.submit("o-1", 1, ctx -> "done");
        orders.submit("o-2", 1, ctx -> "done");
        indicator.health();
        advance(STALL_TIMEOUT);
        assertThat(indicator.health().getStatus()).isEqualTo(Status.DOWN);

        assertThat(backplane.stepper().runNext().ran()).isTrue();
        assertThat(indicator.health().getStatus()).as("progress seen").isEqualTo(Status.UP);

        advance(STALL_TIMEOUT.minusNanos(1));
        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
        advance(Duration.ofNanos(1));
        assertThat(indicator.health().getStatus()).as("stuck again on o-2").isEqualTo(Status.DOWN);
    }

    @Test
    void anIdleBackplaneIsNeverStalled() {
        orders.submit("o-1", 1, ctx -> "done");
        backplane.stepper().runUntilIdle();
        indicator.health();

        advance(Duration.ofHours(1));

        Health health = indicator.health();
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(detail(health)).containsEntry("readyObjects", 0).doesNotContainKey("stalled");
    }

    @Test
    void workArrivingAfterALongIdleTimeIsNotAStall() {
        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
        advance(STALL_TIMEOUT.multipliedBy(2));
        orders.submit("o-1", 1, ctx -> "done");

        assertThat(indicator.health().getStatus()).as("the work has been ready for no time at all").isEqualTo(Status.UP);

        advance(STALL_TIMEOUT);
        assertThat(indicator.health().getStatus()).as("ready for the stall timeout").isEqualTo(Status.DOWN);
    }

    @Test
    void aThrottledBackplaneWaitingForCpuBudgetIsNotStalled() {
        io.appbackplane.ManualClock clock = new io.appbackplane.ManualClock();
        Backplane limited = Backplane.builder("limited").clock(clock).stepMode()
                .policy(io.appbackplane.BackplanePolicy.builder().threads(1)
                        .cpuLimit(0.5).cpuBudgetSlices(1).build())
                .build();
        try {
            BackplaneComponent bulk = limited.install(ComponentSpec.named("bulk"));
            limited.stepper().runUntilIdle();
            for (int i = 0; i < 8; i++) {
                bulk.submit("k", 1, ctx -> {
                    clock.advance(Duration.ofMillis(100)); // each action runs 100 ms of the 500 ms budget
                    return null;
                });
            }
            Duration stallTimeout = Duration.ofMillis(100);
            BackplaneHealthIndicator throttledIndicator =
                    new BackplaneHealthIndicator(BackplaneRegistry.of(limited), stallTimeout, clock::nanoTime);
            for (int i = 0; i < 5; i++) {
                assertThat(limited.stepper().runNext().ran()).isTrue();
            }
            assertThat(limited.stepper().runNext()).isEqualTo(io.appbackplane.Stepper.Step.THROTTLED);
            assertThat(throttledIndicator.health().getStatus()).isEqualTo(Status.UP);

            clock.advance(Duration.ofMillis(300)); // three stall timeouts, still inside the throttled period
            assertThat(limited.stepper().runNext()).isEqualTo(io.appbackplane.Stepper.Step.THROTTLED);

            Health health = throttledIndicator.health();
            assertThat(health.getStatus()).as("ready work waited for CPU budget, which is no stall").isEqualTo(Status.UP);
            @SuppressWarnings("unchecked")
            Map<String, Object> detail = (Map<String, Object>) health.getDetails().get("limited");
            assertThat(detail).doesNotContainKey("stalled").containsKey("throttledTotal");
        } finally {
            limited.close();
        }
    }

    private void advance(Duration by) {
        nanos.addAndGet(by.toNanos());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> detail(Health health) {
        return (Map<String, Object>) health.getDetails().get("bp");
    }

    private static BackplaneRegistry registryOf(Backplane backplane) {
        return BackplaneRegistry.of(backplane);
    }
}
