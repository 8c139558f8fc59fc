package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.Stepper.Kind;
import io.appbackplane.Stepper.Step;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rule 13 in step mode on a manual clock: timers only queue actions, on their object at their
 * priority, when the clock reaches their deadline; a repeating timer never has more than one firing
 * pending.
 */
class TimerRuleTest {

    private static final Duration MS_100 = Duration.ofMillis(100);

    private final ManualClock clock = new ManualClock();
    private final List<String> ran = new ArrayList<>();
    private Backplane backplane;
    private BackplaneComponent app;

    @BeforeEach
    void start() {
        backplane = Backplane.builder("test")
                .policy(BackplanePolicy.builder().priorities(3).build())
                .clock(clock)
                .stepMode()
                .build();
        app = backplane.install(ComponentSpec.named("app"));
    }

    @AfterEach
    void close() {
        backplane.close();
    }

    private Step step() {
        return backplane.stepper().runNext();
    }

    private long now() {
        return Duration.ofNanos(clock.nanoTime()).toMillis();
    }

    /** An action that records where and when it ran. */
    private Action<Void> recording(String label) {
        return ctx -> {
            ran.add(label + "@" + now() + "/" + ctx.objectKey() + "/p" + ctx.priority());
            return null;
        };
    }

    @Test
    void rule13_aOneShotTimerQueuesItsActionOnItsObjectAtItsPriorityOnlyWhenTheClockReachesItsDeadline() {
        app.submit("bulk", 2, ctx -> ran.add("bulk1"));
        app.submit("bulk", 2, ctx -> ran.add("bulk2"));
        TimerHandle timer = app.schedule("t", 0, MS_100, recording("timer"));
        assertThat(step().objectKey()).isEqualTo("bulk");

        clock.advance(Duration.ofMillis(99));
        assertThat(timer.firings()).isZero();
        assertThat(backplane.statistics().priorities().get(0).readyDepth()).isZero();

        clock.advance(Duration.ofMillis(1)); // t = 100 ms: the timer thread only queues the action
        assertThat(timer.firings()).isEqualTo(1);
        assertThat(ran).containsExactly("bulk1");
        assertThat(backplane.statistics().priorities().get(0).readyDepth()).isEqualTo(1);

        assertThat(step()).isEqualTo(new Step(Kind.RAN, "app", "t", 0)); // ahead of the queued bulk work
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(1);
        assertThat(ran).containsExactly("bulk1", "timer@100/t/p0", "bulk2");

        clock.advance(Duration.ofSeconds(5));
        assertThat(step()).isEqualTo(Step.IDLE);
        assertThat(timer.firings()).isEqualTo(1);
        assertThat(timer.skippedFirings()).isZero();
    }

    @Test
    void rule13_aFixedRateTimerFiresEveryPeriodFromItsInitialDelay() {
        TimerHandle timer = app.scheduleAtFixedRate("t", 1, Duration.ofMillis(50), MS_100, recording("tick"));
        clock.advance(Duration.ofMillis(49));
        assertThat(timer.firings()).isZero();
        clock.advance(Duration.ofMillis(1));
        backplane.stepper().runUntilIdle();
        for (int i = 0; i < 3; i++) {
            clock.advance(MS_100);
            backplane.stepper().runUntilIdle();
        }
        assertThat(ran).containsExactly("tick@50/t/p1", "tick@150/t/p1", "tick@250/t/p1", "tick@350/t/p1");
        assertThat(timer.firings()).isEqualTo(4);
        assertThat(timer.skippedFirings()).isZero();
    }

    @Test
    void rule13_aFixedRateTimerSkipsFiringsWhileThePreviousOneIsStillQueued() {
        TimerHandle timer = app.scheduleAtFixedRate("t", 1, MS_100, MS_100, recording("tick"));
        clock.advance(MS_100); // fires: queued
        clock.advance(MS_100); // previous firing still queued: skipped
        clock.advance(MS_100); // skipped
        assertThat(timer.firings()).isEqualTo(1);
        assertThat(timer.skippedFirings()).isEqualTo(2);
        assertThat(app.statistics().counts().submitted()).isEqualTo(1);

        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(1); // one firing, no backlog
        assertThat(ran).containsExactly("tick@300/t/p1");

        clock.advance(MS_100); // t = 400: the previous firing finished, so this one is queued
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(1);
        assertThat(ran).containsExactly("tick@300/t/p1", "tick@400/t/p1");
        assertThat(timer.firings()).isEqualTo(2);
        assertThat(timer.skippedFirings()).isEqualTo(2);
    }

    @Test
    void rule13_aFixedRateFiringThatHasStartedButNotFinishedAlsoCausesASkip() {
        // The firing waits for a reply: outstanding, though no longer queued.
        CompletableFuture<String> reply = new CompletableFuture<>();
        TimerHandle timer = app.scheduleAtFixedRate("t", 1, MS_100, MS_100,
                ctx -> ctx.awaitReply(reply, (c, value, failure) -> ran.add("replied " + value)));
        clock.advance(MS_100);
        backplane.stepper().runUntilIdle();
        clock.advance(MS_100);
        assertThat(timer.skippedFirings()).isEqualTo(1);
        reply.complete("x");
        backplane.stepper().runUntilIdle();
        clock.advance(MS_100);
        assertThat(timer.firings()).isEqualTo(2);
        assertThat(ran).containsExactly("replied x");
    }

    @Test
    void rule13_aFixedDelayTimerMeasuresItsDelayFromTheEndOfTheLastRun() {
        TimerHandle timer = app.scheduleWithFixedDelay("t", 2, MS_100, Duration.ofMillis(200), ctx -> {
            ran.add("start@" + now());
            clock.advance(Duration.ofMillis(50)); // the firing runs 50 ms
            return null;
        });
        clock.advance(MS_100); // first firing queued at 100 ms
        clock.advance(Duration.ofMillis(300)); // not run yet: no further firing is queued
        assertThat(timer.firings()).isEqualTo(1);
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(1); // runs 400 → 450 ms

        clock.advance(Duration.ofMillis(199)); // 649 ms
        assertThat(step()).isEqualTo(Step.IDLE);
        clock.advance(Duration.ofMillis(1)); // 650 ms = 450 + 200
        assertThat(step()).isEqualTo(new Step(Kind.RAN, "app", "t", 2)); // runs 650 → 700 ms
        clock.advance(Duration.ofMillis(200));
        assertThat(step().ran()).isTrue();
        assertThat(ran).containsExactly("start@400", "start@650", "start@900");
        assertThat(timer.firings()).isEqualTo(3);
        assertThat(timer.skippedFirings()).isZero();
    }

    @Test
    void rule13_cancelStopsFutureFiringsButAFiringAlreadyQueuedStillRuns() {
        TimerHandle timer = app.scheduleAtFixedRate("t", 1, MS_100, MS_100, recording("tick"));
        clock.advance(MS_100);
        backplane.stepper().runUntilIdle();
        clock.advance(MS_100); // second firing queued
        timer.cancel();
        assertThat(timer.isCancelled()).isTrue();
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(1);

        clock.advance(Duration.ofSeconds(2));
        assertThat(step()).isEqualTo(Step.IDLE);
        assertThat(ran).containsExactly("tick@100/t/p1", "tick@200/t/p1");
        assertThat(timer.firings()).isEqualTo(2);
        timer.cancel(); // idempotent
        assertThat(timer.isCancelled()).isTrue();
    }

    @Test
    void rule13_cancellingAOneShotOrFixedDelayTimerBeforeItsDeadlineMeansItNeverFires() {
        TimerHandle once = app.schedule("a", 1, MS_100, recording("once"));
        TimerHandle delay = app.scheduleWithFixedDelay("b", 1, MS_100, MS_100, recording("delay"));
        clock.advance(MS_100);
        backplane.stepper().runUntilIdle(); // delay fired once; its next firing is pending
        once.cancel(); // already fired: nothing changes
        delay.cancel();
        clock.advance(Duration.ofSeconds(1));
        assertThat(step()).isEqualTo(Step.IDLE);
        assertThat(ran).containsExactly("once@100/a/p1", "delay@100/b/p1");

        TimerHandle never = app.schedule("c", 1, MS_100, recording("never"));
        never.cancel();
        clock.advance(Duration.ofSeconds(1));
        assertThat(step()).isEqualTo(Step.IDLE);
        assertThat(never.firings()).isZero();
    }

    @Test
    void rule13_badTimerArgumentsAreRejectedWithIllegalArgumentExceptionNamingTheValue() {
        Action<Void> noop = ctx -> null;
        Duration negative = Duration.ofMillis(-100);
        assertThatThrownBy(() -> app.schedule("t", 1, negative, noop))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(negative.toString());
        assertThatThrownBy(() -> app.scheduleAtFixedRate("t", 1, negative, MS_100, noop))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(negative.toString());
        assertThatThrownBy(() -> app.scheduleAtFixedRate("t", 1, MS_100, Duration.ZERO, noop))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("period")
                .hasMessageContaining(Duration.ZERO.toString());
        assertThatThrownBy(() -> app.scheduleAtFixedRate("t", 1, MS_100, negative, noop))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(negative.toString());
        assertThatThrownBy(() -> app.scheduleWithFixedDelay("t", 1, MS_100, Duration.ZERO, noop))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delay")
                .hasMessageContaining(Duration.ZERO.toString());
        assertThatThrownBy(() -> app.schedule("t", 3, MS_100, noop))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("priority 3");

        clock.advance(Duration.ofSeconds(1)); // nothing was scheduled by the rejected calls
        assertThat(step()).isEqualTo(Step.IDLE);
        assertThat(app.statistics().counts().submitted()).isZero();
    }
}
