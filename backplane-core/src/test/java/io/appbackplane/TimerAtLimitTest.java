package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Rules 11 and 13 together: a timer whose component is at its operation limit
 * skips the firing and goes on; the component's make-room hook is never run by the thread that
 * fires timers (that thread also fires real ticks and reply timeouts), so a hook that throws cannot
 * kill a timer. Step mode on a manual clock: timers fire inside {@code advance}.
 */
class TimerAtLimitTest {

    private final ManualClock clock = new ManualClock();
    private final AtomicInteger hookCalls = new AtomicInteger();
    private final Backplane backplane = Backplane.builder("timers-at-limit").clock(clock).stepMode().build();
    private final BackplaneComponent app = backplane.install(ComponentSpec.named("app")
            .withOperationLimit(1)
            .withMakeRoom(component -> {
                hookCalls.incrementAndGet();
                throw new IllegalStateException("the make-room hook fails");
            }));
    private final AtomicInteger ran = new AtomicInteger();

    private void fillToTheLimit() {
        app.submit("filler", 1, ctx -> "fills the limit of 1 until it runs");
        assertThat(app.outstanding()).isEqualTo(1);
    }

    private void assertKeepsFiring(TimerHandle timer) {
        fillToTheLimit();
        clock.advance(Duration.ofMillis(100)); // due at the limit: skipped, no hook
        assertThat(hookCalls).as("make-room hook calls from the timer").hasValue(0);
        assertThat(timer.skippedFirings()).isEqualTo(1);
        backplane.stepper().runUntilIdle(); // the filler runs; the limit frees up

        clock.advance(Duration.ofMillis(100));
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(1);
        clock.advance(Duration.ofMillis(100));
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(1);

        assertThat(ran).as("firings that ran after the skipped one").hasValue(2);
        assertThat(timer.firings()).isEqualTo(2);
        assertThat(timer.isCancelled()).isFalse();
    }

    @Test
    void aFixedRateTimer_atTheLimit_skipsAndKeepsFiring() {
        TimerHandle timer = app.scheduleAtFixedRate("t", 1, Duration.ofMillis(100), Duration.ofMillis(100),
                ctx -> ran.incrementAndGet());
        assertKeepsFiring(timer);
    }

    @Test
    void aFixedDelayTimer_atTheLimit_skipsAndIsNotLeftOutstanding() {
        TimerHandle timer = app.scheduleWithFixedDelay("t", 1, Duration.ofMillis(100), Duration.ofMillis(100),
                ctx -> ran.incrementAndGet());
        assertKeepsFiring(timer);
    }

    @Test
    void aTimerEndpoint_atTheLimit_staysRunningAndKeepsFiring() {
        backplane.moveTo(ComponentState.PRIMARY);
        backplane.stepper().runUntilIdle();
        TimerHandle timer = app.timer(TimerSpec.fixedRate("tick", Duration.ofMillis(100), Duration.ofMillis(100),
                ctx -> ran.incrementAndGet()));
        assertKeepsFiring(timer);
    }
}
