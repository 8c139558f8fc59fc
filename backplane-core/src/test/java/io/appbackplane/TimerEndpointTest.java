package io.appbackplane;

import static io.appbackplane.ComponentState.DOWN;
import static io.appbackplane.ComponentState.PRIMARY;
import static io.appbackplane.ComponentState.SECONDARY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.Stepper.Kind;
import io.appbackplane.Stepper.Step;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Timer endpoints ({@link TimerSpec}, scheduling rule 13 and docs/scheduling.md's modules and states) in step mode on a manual clock:
 * firings are actions on the timer's object at its priority, only while the component is in one of
 * the timer's accepting states, and a repeating timer never builds a backlog, even while throttled.
 */
class TimerEndpointTest {

    private static final Duration MS_100 = Duration.ofMillis(100);

    private final ManualClock clock = new ManualClock();
    private final List<String> ran = new ArrayList<>();
    private Backplane backplane;
    private BackplaneComponent app;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private void start(BackplanePolicy policy) {
        backplane = Backplane.builder("t").policy(policy).clock(clock).stepMode().build();
        app = backplane.install(ComponentSpec.named("app"));
    }

    private void start() {
        start(BackplanePolicy.builder().priorities(3).build());
    }

    /** Moves every component to {@code target} and runs the transitions (at the current time). */
    private void moveTo(ComponentState target) {
        CompletableFuture<Void> moved = backplane.moveTo(target);
        backplane.stepper().runUntilIdle();
        assertThat(moved).isCompletedWithValue(null);
        assertThat(app.state()).isEqualTo(target);
    }

    private long now() {
        return Duration.ofNanos(clock.nanoTime()).toMillis();
    }

    /** An action that records "label@millis/objectKey/pPriority". */
    private Action<Void> recording(String label) {
        return ctx -> {
            ran.add(label + "@" + now() + "/" + ctx.objectKey() + "/p" + ctx.priority());
            return null;
        };
    }

    /** Advances the clock in {@code step}s up to {@code total}, running what is queued after each. */
    private void advanceAndRun(Duration total, Duration step) {
        for (Duration done = Duration.ZERO; done.compareTo(total) < 0; done = done.plus(step)) {
            clock.advance(step);
            backplane.stepper().runUntilIdle();
        }
    }

    @Test
    void timers_fireNothingInStart_startOnEnteringPrimary_andFireAsActionsOnTheirObjectAtTheirPriority() {
        start();
        TimerHandle tick = app.timer(TimerSpec.fixedRate("tick", MS_100, MS_100, recording("tick")));
        TimerHandle poll = app.timer(TimerSpec.once("poll", Duration.ofMillis(150), recording("poll"))
                .onObject("poller")
                .withPriority(0));

        clock.advance(Duration.ofSeconds(1)); // START: not registered, so nothing is queued
        assertThat(backplane.stepper().runUntilIdle()).isZero();
        assertThat(tick.firings()).isZero();
        assertThat(poll.firings()).isZero();
        assertThat(tick.isCancelled()).isFalse();

        moveTo(PRIMARY); // t = 1000 ms: the timers start now
        clock.advance(Duration.ofMillis(99));
        assertThat(backplane.stepper().runNext()).isEqualTo(Step.IDLE);
        clock.advance(Duration.ofMillis(1));
        assertThat(tick.firings()).isEqualTo(1);
        assertThat(ran).isEmpty(); // the timer only queued its action
        assertThat(backplane.stepper().runNext())
                .isEqualTo(new Step(Kind.RAN, "app", BackplaneComponent.COMPONENT_KEY, 1)); // defaults: own object, p1
        clock.advance(Duration.ofMillis(50));
        assertThat(backplane.stepper().runNext()).isEqualTo(new Step(Kind.RAN, "app", "poller", 0));
        advanceAndRun(Duration.ofMillis(250), Duration.ofMillis(50));

        assertThat(ran).containsExactly(
                "tick@1100/<component>/p1",
                "poll@1150/poller/p0",
                "tick@1200/<component>/p1",
                "tick@1300/<component>/p1",
                "tick@1400/<component>/p1");
        assertThat(tick.firings()).isEqualTo(4);
        assertThat(poll.firings()).isEqualTo(1); // once
    }

    @Test
    void aTimerAcceptingOnlyPrimary_stopsOnMoveToSecondary_andResumesOnPrimary_withFiringsCountingAcross() {
        start();
        TimerHandle primaryOnly = app.timer(TimerSpec.fixedRate("primary-only", MS_100, MS_100, recording("p")));
        TimerHandle both = app.timer(TimerSpec.fixedRate("both", MS_100, MS_100, recording("b"))
                .onObject("both")
                .acceptingIn(PRIMARY, SECONDARY));
        TimerHandle standby = app.timer(TimerSpec.fixedRate("standby", MS_100, MS_100, recording("s"))
                .onObject("standby")
                .acceptingIn(SECONDARY));

        moveTo(PRIMARY);
        advanceAndRun(Duration.ofMillis(300), MS_100); // t = 300
        assertThat(primaryOnly.firings()).isEqualTo(3);
        assertThat(both.firings()).isEqualTo(3);
        assertThat(standby.firings()).isZero();

        moveTo(SECONDARY); // the role switch, at t = 300
        advanceAndRun(Duration.ofMillis(500), MS_100); // t = 800
        assertThat(primaryOnly.firings()).isEqualTo(3); // stopped
        assertThat(both.firings()).isEqualTo(8); // kept going
        assertThat(standby.firings()).isEqualTo(5); // started on entering SECONDARY

        moveTo(PRIMARY); // at t = 800: restarted with its initial delay
        advanceAndRun(Duration.ofMillis(200), MS_100); // t = 1000
        assertThat(primaryOnly.firings()).isEqualTo(5); // counting on from 3
        assertThat(both.firings()).isEqualTo(10);
        assertThat(standby.firings()).isEqualTo(5);
        assertThat(primaryOnly.skippedFirings()).isZero();
        assertThat(primaryOnly.isCancelled()).isFalse();

        assertThat(ran).filteredOn(s -> s.startsWith("p@"))
                .containsExactly("p@100/<component>/p1", "p@200/<component>/p1", "p@300/<component>/p1",
                        "p@900/<component>/p1", "p@1000/<component>/p1");
        assertThat(ran).filteredOn(s -> s.startsWith("s@"))
                .containsExactly("s@400/standby/p1", "s@500/standby/p1", "s@600/standby/p1", "s@700/standby/p1",
                        "s@800/standby/p1");
    }

    @Test
    void timers_stopAtMoveToDown() {
        start();
        TimerHandle tick = app.timer(TimerSpec.fixedDelay("tick", MS_100, MS_100, recording("tick"))
                .acceptingIn(PRIMARY, SECONDARY));
        moveTo(PRIMARY);
        advanceAndRun(Duration.ofMillis(200), MS_100);
        assertThat(tick.firings()).isEqualTo(2);

        moveTo(DOWN);
        advanceAndRun(Duration.ofSeconds(2), MS_100);
        assertThat(tick.firings()).isEqualTo(2);
        assertThat(ran).containsExactly("tick@100/<component>/p1", "tick@200/<component>/p1");
        assertThat(backplane.stepper().runNext()).isEqualTo(Step.IDLE);
    }

    @Test
    void aTimerRegisteredWhileTheComponentIsAlreadyAccepting_startsAtOnce() {
        start();
        moveTo(PRIMARY);
        TimerHandle late = app.timer(TimerSpec.once("late", MS_100, recording("late")).onObject("late").withPriority(2));
        clock.advance(MS_100);
        assertThat(backplane.stepper().runNext()).isEqualTo(new Step(Kind.RAN, "app", "late", 2));
        assertThat(ran).containsExactly("late@100/late/p2");
        assertThat(late.firings()).isEqualTo(1);
    }

    @Test
    void aFixedRateTimer_buildsNoBacklogWhileTheBackplaneIsThrottled_itsQueuedFiringMakesLaterOnesSkip() {
        // 0.1 core in one slice: 100 ms of action time per 1 s period.
        start(BackplanePolicy.builder().priorities(3).cpuLimit(0.1).cpuBudgetSlices(1).build());
        moveTo(PRIMARY); // t = 0 (transitions take no time)
        TimerHandle tick = app.timer(TimerSpec.fixedRate("tick", Duration.ofMillis(50), MS_100, recording("tick"))
                .onObject("ticker"));
        for (int i = 1; i <= 3; i++) { // a busy backplane: each bulk action uses the whole budget of a period
            String label = "bulk" + i;
            app.submit("bulk", 2, ctx -> {
                ran.add(label + "@" + now());
                clock.advance(MS_100);
                return null;
            });
        }

        assertThat(backplane.stepper().runNext().objectKey()).isEqualTo("bulk"); // runs 0 → 100; the tick at 50 is queued
        assertThat(tick.firings()).isEqualTo(1);
        assertThat(backplane.stepper().runNext()).isEqualTo(Step.THROTTLED); // the tick waits for CPU budget

        clock.advance(Duration.ofMillis(900)); // t = 1000; due at 150, 250, ..., 950 while the firing is queued
        assertThat(tick.firings()).isEqualTo(1);
        assertThat(tick.skippedFirings()).isEqualTo(9);
        assertThat(app.statistics().counts().outstanding()).isEqualTo(2 + 1); // two bulk actions, ONE firing

        // The real tick at 1000 ms released a new budget: the tick (p1) runs before the bulk work (p2).
        assertThat(backplane.stepper().runNext()).isEqualTo(new Step(Kind.RAN, "app", "ticker", 1));
        assertThat(backplane.stepper().runNext().objectKey()).isEqualTo("bulk"); // 1000 → 1100; the tick at 1050 is queued
        assertThat(backplane.stepper().runNext()).isEqualTo(Step.THROTTLED);
        assertThat(tick.firings()).isEqualTo(2);

        clock.advance(Duration.ofMillis(900)); // t = 2000
        assertThat(tick.skippedFirings()).isEqualTo(18);
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(2); // the tick, then bulk3 (2000 → 2100)
        assertThat(backplane.stepper().runNext()).isEqualTo(Step.THROTTLED); // the tick at 2050 waits again

        assertThat(ran).containsExactly("bulk1@0", "tick@1000/ticker/p1", "bulk2@1000", "tick@2000/ticker/p1", "bulk3@2000");
        assertThat(tick.firings()).isEqualTo(3);
        assertThat(tick.skippedFirings()).isEqualTo(18);
        assertThat(app.statistics().counts().outstanding()).isEqualTo(1); // just the one queued firing

        clock.advance(Duration.ofMillis(900)); // t = 3000: the next period runs it
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(1);
        assertThat(ran).endsWith("tick@3000/ticker/p1");
        assertThat(tick.skippedFirings()).isEqualTo(27);
        assertThat(app.statistics().counts().outstanding()).isZero();
    }

    @Test
    void computedDelay_asksTheSupplierEachTimeAfterAFiringFinishes_andStopsWhenItReturnsNull() {
        start();
        Deque<Duration> delays = new ArrayDeque<>(Arrays.asList(MS_100, Duration.ofMillis(250), Duration.ofMillis(50)));
        List<Long> askedAt = new ArrayList<>();
        TimerHandle computed = app.timer(TimerSpec.computedDelay("cron", () -> {
            askedAt.add(now());
            return delays.poll(); // null once empty: no next firing
        }, ctx -> {
            ran.add("cron@" + now());
            clock.advance(Duration.ofMillis(10)); // each firing runs 10 ms; the next delay counts from its end
            return null;
        }));
        moveTo(PRIMARY);
        assertThat(askedAt).containsExactly(0L); // asked for the first delay on entering PRIMARY

        advanceAndRun(Duration.ofSeconds(2), Duration.ofMillis(50));

        // 0 + 100 = 100; run 100 → 110, + 250 = 360; run 360 → 370, + 50 = 420; run 420 → 430: null, stop.
        assertThat(ran).containsExactly("cron@100", "cron@360", "cron@420");
        assertThat(askedAt).containsExactly(0L, 110L, 370L, 430L);
        assertThat(computed.firings()).isEqualTo(3);
        assertThat(computed.skippedFirings()).isZero();
    }

    @Test
    void timer_aDuplicateNameOrAnInvalidPriorityIsRejected_andTheFirstTimerKeepsRunning() {
        start();
        TimerHandle first = app.timer(TimerSpec.fixedRate("tick", MS_100, MS_100, recording("tick")));
        assertThatThrownBy(() -> app.timer(TimerSpec.once("tick", MS_100, recording("other"))))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("'app'", "'tick'");
        assertThatThrownBy(() -> app.timer(TimerSpec.once("urgent", MS_100, recording("urgent")).withPriority(3)))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("priority 3");
        assertThatThrownBy(() -> TimerSpec.once("negative", MS_100, recording("x")).withPriority(-1))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("'negative'", "-1");

        moveTo(PRIMARY);
        advanceAndRun(Duration.ofMillis(200), MS_100);
        assertThat(ran).containsExactly("tick@100/<component>/p1", "tick@200/<component>/p1");
        assertThat(first.firings()).isEqualTo(2);
        assertThat(app.timer(TimerSpec.once("urgent", MS_100, recording("urgent")).withPriority(0))).isNotNull(); // the name is free
    }

    @Test
    void cancel_stopsATimerEndpointForGood_evenAcrossStateChanges() {
        start();
        TimerHandle tick = app.timer(TimerSpec.fixedRate("tick", MS_100, MS_100, recording("tick")));
        moveTo(PRIMARY);
        advanceAndRun(MS_100, MS_100);
        tick.cancel();
        assertThat(tick.isCancelled()).isTrue();
        moveTo(SECONDARY);
        moveTo(PRIMARY); // does not restart a cancelled timer
        advanceAndRun(Duration.ofSeconds(1), MS_100);
        assertThat(tick.firings()).isEqualTo(1);
        assertThat(ran).containsExactly("tick@100/<component>/p1");
    }
}
