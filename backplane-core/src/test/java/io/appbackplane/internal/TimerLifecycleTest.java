package io.appbackplane.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ComponentState;
import io.appbackplane.ManualClock;
import io.appbackplane.TimerHandle;
import io.appbackplane.TimerSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Timers end cleanly and survive rejections and failing schedules (review findings, rule 13). */
class TimerLifecycleTest {

    private final ManualClock clock = new ManualClock();
    private final DefaultBackplane backplane =
            (DefaultBackplane) Backplane.builder("timers").clock(clock).stepMode().build();

    @AfterEach
    void close() {
        backplane.close();
    }

    @Test
    void aFixedDelayTimerWhoseFiringIsRejectedKeepsFiringOnceThereIsRoom() {
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").withOperationLimit(1));
        List<Long> firedAt = new ArrayList<>();
        TimerHandle timer = app.scheduleWithFixedDelay("t", 1, Duration.ofMillis(10), Duration.ofMillis(10), ctx -> {
            firedAt.add(clock.nanoTime() / 1_000_000);
            return null;
        });
        CompletableFuture<String> blocker = app.submit("busy", 2, ctx -> "held the only slot");

        clock.advance(Duration.ofMillis(10)); // the firing meets the full component: rejected
        assertThat(timer.skippedFirings()).isEqualTo(1);
        backplane.stepper().runUntilIdle(); // frees the slot
        assertThat(blocker).isDone();
        clock.advance(Duration.ofMillis(10)); // the timer was rescheduled after the rejection
        backplane.stepper().runUntilIdle();

        assertThat(firedAt).containsExactly(20L);
        assertThat(timer.isCancelled()).isFalse();
    }

    @Test
    void aOneShotTimerIsForgottenOnceItsFiringFinishes() {
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        for (int i = 0; i < 100; i++) {
            app.schedule("k" + i, 1, Duration.ofMillis(5), ctx -> null);
        }
        assertThat(backplane.sequence.liveTimerCount()).isEqualTo(100);
        clock.advance(Duration.ofMillis(5));
        backplane.stepper().runUntilIdle();
        assertThat(backplane.sequence.liveTimerCount()).isZero();
    }

    @Test
    void aComputedDelayThatThrowsEndsTheTimerWithoutHurtingTheWorkerOrTheObject() {
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        AtomicInteger asked = new AtomicInteger();
        AtomicInteger fired = new AtomicInteger();
        TimerHandle timer = app.timer(TimerSpec.computedDelay("cron", () -> {
            if (asked.incrementAndGet() > 1) {
                throw new IllegalStateException("no next time");
            }
            return Duration.ofMillis(10);
        }, ctx -> fired.incrementAndGet()));
        backplane.moveTo(ComponentState.PRIMARY);
        backplane.stepper().runUntilIdle();

        clock.advance(Duration.ofMillis(10));
        backplane.stepper().runUntilIdle(); // the firing runs; asking for the next delay throws: the timer ends

        assertThat(fired.get()).isEqualTo(1);
        assertThat(app.submit(BackplaneComponent.COMPONENT_KEY, 1, ctx -> "still served")).isNotDone();
        backplane.stepper().runUntilIdle();
        clock.advance(Duration.ofSeconds(1));
        backplane.stepper().runUntilIdle();
        assertThat(fired.get()).isEqualTo(1);
        assertThat(backplane.sequence.liveTimerCount()).isZero();
        assertThat(timer.firings()).isEqualTo(1);
    }

    @Test
    void closeInStepModeAfterAShutdownWithADrainTimeoutFailsWhatIsLeftInsteadOfWaitingForTheClock() {
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        CompletableFuture<String> queued = app.submit("k", 1, ctx -> "never run");
        backplane.shutdown(Duration.ofSeconds(5)); // waits for a manual clock that nobody advances

        backplane.close(); // must not hang

        assertThat(queued).isCompletedExceptionally();
        assertThat(backplane.isIdle()).isTrue();
    }
}
