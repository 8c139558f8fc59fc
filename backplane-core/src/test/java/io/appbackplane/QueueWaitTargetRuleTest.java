package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.BackplaneRejectedException.Reason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rule 19: a component with a queue-wait target adapts its admission limit at every real tick, on
 * a manual clock in step mode, so every wait is exact. The tail is judged over a window of the last
 * periods back to 500 actions (at most 10 ticks, none before the last fall): over the target (the
 * period's mean, or more late actions than 1 % of the window, or of 500 if it holds fewer) the
 * limit falls at once, in proportion (at most by half); on a full window within it with room to
 * spare (at most 0.5 % late, the mean at most a quarter of the target) and binding it rises, by its square root far under the last limit that
 * proved too high (up to 0.9 of it at most) (a fall right after a fall keeps it) and by one per full window near it, never above the configured operation limit; otherwise
 * it holds; rule 11 holds within the adapted limit.
 */
class QueueWaitTargetRuleTest {

    private static final Duration PERIOD = Duration.ofSeconds(1);

    private final ManualClock clock = new ManualClock();
    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private BackplaneComponent start(ComponentSpec spec, double admissionReserve) {
        backplane = Backplane.builder("test")
                .policy(BackplanePolicy.builder().priorities(4).admissionReserve(admissionReserve).integrationPeriod(PERIOD).build())
                .clock(clock).stepMode().build();
        return backplane.install(spec);
    }

    /** Submits {@code n} actions at {@code priority}, lets them wait {@code wait}, then runs them all. */
    private void queueAndRun(BackplaneComponent app, int n, int priority, Duration wait) {
        for (int i = 0; i < n; i++) {
            app.submit("k" + i, priority, ctx -> "done");
        }
        clock.advance(wait);
        backplane.stepper().runUntilIdle();
    }

    private void toTheNextTick(Duration sinceLastTick) {
        clock.advance(PERIOD.minus(sinceLastTick));
    }

    /**
     * One period at priority 1 in which the limit binds: {@code late} actions that wait {@code
     * lateWait}, then the rest of {@code actions} with no wait, in batches up to the limit (the first
     * full batch sees one more request rejected); then the clock goes to the next tick.
     */
    private void period(BackplaneComponent app, int actions, int late, Duration lateWait) {
        for (int i = 0; i < late; i++) {
            app.submit("late" + i, 1, ctx -> "done");
        }
        clock.advance(lateWait);
        boolean bound = false;
        for (int left = actions - late; left > 0; ) {
            int batch = Math.min(left, app.operationLimit() - app.outstanding());
            for (int i = 0; i < batch; i++) {
                app.submit("k" + i, 1, ctx -> "done");
            }
            left -= batch;
            if (!bound && app.outstanding() == app.operationLimit()) {
                assertThatThrownBy(() -> app.submit("over", 1, ctx -> "over")).isInstanceOf(BackplaneRejectedException.class);
                bound = true;
            }
            backplane.stepper().runUntilIdle();
        }
        assertThat(bound).as("the period filled the limit").isTrue();
        toTheNextTick(lateWait);
    }

    @Test
    void aMeanWaitOverTheTargetLowersTheLimitInProportion_atMostByHalf() {
        BackplaneComponent app = start(ComponentSpec.named("app").withOperationLimit(100)
                .withQueueWaitTarget(Duration.ofMillis(40)), 0);

        queueAndRun(app, 10, 1, Duration.ofMillis(45)); // every wait 45 ms against 40 ms
        toTheNextTick(Duration.ofMillis(45));
        assertThat(app.operationLimit()).as("the tail (all late): sqrt(1 %% / 100 %%), at most halved").isEqualTo(50);

        queueAndRun(app, 10, 1, Duration.ofMillis(400)); // ten times the target: halved, not divided by ten
        toTheNextTick(Duration.ofMillis(400));
        assertThat(app.operationLimit()).isEqualTo(25);
    }

    @Test
    void aTailOverTheTargetLowersTheLimit_thoughTheMeanIsWellUnderIt() {
        BackplaneComponent app = start(ComponentSpec.named("app").withOperationLimit(100)
                .withQueueWaitTarget(Duration.ofMillis(40)).withMakeRoom(component -> false), 0);

        // 6 of 100 actions wait 100 ms, the rest nothing: mean 6 ms, but the 99th percentile is
        // 100 ms, and 6 late actions are more than even a window of 500 may hold (5).
        for (int i = 0; i < 6; i++) {
            app.submit("early" + i, 1, ctx -> "done");
        }
        clock.advance(Duration.ofMillis(100));
        queueAndRun(app, 94, 1, Duration.ZERO);
        toTheNextTick(Duration.ofMillis(100));
        assertThat(app.operationLimit()).as("100 × max(0.5, sqrt(1 % / 6 %))").isEqualTo(50);

        // After the fall the window refills before the limit rises.
        period(app, 250, 3, Duration.ofMillis(100));
        assertThat(app.operationLimit()).as("250 actions since the fall: the window is filling").isEqualTo(50);
        period(app, 250, 0, Duration.ZERO);
        assertThat(app.operationLimit()).as("3 of 500 late (0.6 %): within the target, no room to rise").isEqualTo(50);
        period(app, 250, 0, Duration.ZERO);
        assertThat(app.operationLimit()).as("the window is the last two periods, none late: 50 + floor(sqrt(50))")
                .isEqualTo(57);
    }

    @Test
    void nearTheLimitThatProvedTooHighItProbesByOne_oncePerFullWindowAfterItsLastRise() {
        BackplaneComponent app = afterAFallFrom(100);

        List<Integer> limits = new ArrayList<>();
        for (int round = 0; round < 12; round++) {
            period(app, 250, 0, Duration.ZERO);
            limits.add(app.operationLimit());
        }
        // Held while the window fills to 500 actions; then by the square root while under 90
        // (0.9 × 100), the last step cut to 90 rather than past it; then by one, each step after a
        // full window (two periods of 250) at the last.
        assertThat(limits).containsExactly(50, 57, 64, 72, 80, 88, 90, 90, 91, 91, 92, 92);
    }

    @Test
    void aFallRightAfterAFallKeepsTheLimitThatFirstProvedTooHigh() {
        BackplaneComponent app = afterAFallFrom(100);
        // The tick after the fall: its actions had queued under the old limit, and they were late too.
        period(app, 100, 10, Duration.ofMillis(100));
        assertThat(app.operationLimit()).as("halved again").isEqualTo(25);

        List<Integer> limits = new ArrayList<>();
        for (int round = 0; round < 11; round++) {
            period(app, 250, 0, Duration.ZERO);
            limits.add(app.operationLimit());
        }
        // The climb rises by the square root up to 90 (0.9 × 100, the limit before the first fall),
        // not to 45 (0.9 × 50, the halved limit that the second fall would have remembered).
        assertThat(limits).containsExactly(25, 30, 35, 40, 46, 52, 59, 66, 74, 82, 90);
    }

    /** A component with a 20 ms target whose limit fell from {@code operationLimit} to half: 10 actions waited 100 ms. */
    private BackplaneComponent afterAFallFrom(int operationLimit) {
        BackplaneComponent app = start(ComponentSpec.named("app").withOperationLimit(operationLimit)
                .withQueueWaitTarget(Duration.ofMillis(20)).withMakeRoom(component -> false), 0);
        queueAndRun(app, 10, 1, Duration.ofMillis(100));
        toTheNextTick(Duration.ofMillis(100));
        assertThat(app.operationLimit()).as("%d proved too high", operationLimit).isEqualTo(operationLimit / 2);
        return app;
    }

    /** Submits up to the limit at {@code priority} and sees one more rejected: the limit binds. */
    private static void fillAndRejectOne(BackplaneComponent app, int priority) {
        for (int i = app.outstanding(); i < app.operationLimit(); i++) {
            app.submit("fill" + i, priority, ctx -> "done");
        }
        assertThatThrownBy(() -> app.submit("over", priority, ctx -> "over")).isInstanceOf(BackplaneRejectedException.class);
    }

    @Test
    void theMostUrgentBusyPriorityIsWhatCounts() {
        BackplaneComponent app = start(ComponentSpec.named("app").withOperationLimit(100)
                .withQueueWaitTarget(Duration.ofMillis(20)), 0);

        // Bulk work at priority 3 waited long; urgent work at priority 1 waited nothing.
        for (int i = 0; i < 20; i++) {
            app.submit("bulk" + i, 3, ctx -> "bulk");
        }
        clock.advance(Duration.ofMillis(300));
        queueAndRun(app, 5, 1, Duration.ZERO);
        toTheNextTick(Duration.ofMillis(300));

        assertThat(app.operationLimit()).as("urgent work met its target: the limit stays").isEqualTo(100);
    }

    @Test
    void aWaitUnderTheTargetRaisesABindingLimitUpToTheOperationLimit_butNotAnIdleOne() {
        BackplaneComponent app = afterAFallFrom(60);

        // Under the target on a full window (500 actions), but the limit held nothing back: unchanged.
        for (int batch = 0; batch < 20; batch++) {
            queueAndRun(app, 25, 1, Duration.ZERO);
        }
        toTheNextTick(Duration.ZERO);
        assertThat(app.operationLimit()).isEqualTo(30);

        // Under the target and a request rejected at the limit: + floor(sqrt(30)) = 5.
        for (int i = 0; i < 30; i++) {
            app.submit("k" + i, 1, ctx -> "done");
        }
        assertThatThrownBy(() -> app.submit("over", 1, ctx -> "over"))
                .isInstanceOfSatisfying(BackplaneRejectedException.class, e -> {
                    assertThat(e.reason()).isEqualTo(Reason.COMPONENT_LIMIT);
                    assertThat(e.isRetryable()).isTrue();
                    assertThat(e).hasMessageContaining("limit (30)");
                });
        backplane.stepper().runUntilIdle();
        toTheNextTick(Duration.ZERO);
        assertThat(app.operationLimit()).isEqualTo(35);

        // Rejections each period under the target: up each tick by the square root to 54 (0.9 ×
        // 60, where probing begins: the step from 52 stops there), then by one once the window
        // since that rise is full (10 ticks of these light periods), never past 60.
        List<Integer> limits = new ArrayList<>();
        for (int round = 0; round < 70; round++) {
            fillAndRejectOne(app, 1);
            backplane.stepper().runUntilIdle();
            toTheNextTick(Duration.ZERO);
            limits.add(app.operationLimit());
        }
        assertThat(limits.subList(0, 5)).containsExactly(40, 46, 52, 54, 54);
        assertThat(limits.get(limits.size() - 1)).isEqualTo(60);
        assertThat(limits).allMatch(limit -> limit <= 60);
    }

    @Test
    void aLimitNinetyPercentFullAtTheTickBindsToo() {
        BackplaneComponent app = start(ComponentSpec.named("app").withOperationLimit(100)
                .withQueueWaitTarget(Duration.ofMillis(20)), 0);
        queueAndRun(app, 10, 1, Duration.ofMillis(40));
        toTheNextTick(Duration.ofMillis(40));
        assertThat(app.operationLimit()).isEqualTo(50);

        for (int batch = 0; batch < 10; batch++) {
            queueAndRun(app, 50, 1, Duration.ZERO); // a full window of 500 actions, none waited
        }
        for (int i = 0; i < 45; i++) {
            app.submit("k" + i, 1, ctx -> "done"); // 45 of 50 outstanding at the tick
        }
        toTheNextTick(Duration.ZERO);

        assertThat(app.operationLimit()).isEqualTo(57); // 50 + floor(sqrt(50))
    }

    @Test
    void aTailOfAboutOnePercentHolds_ratherThanRisingOnCleanPeriodsAndFallingOnLateOnes() {
        BackplaneComponent app = afterAFallFrom(300);

        // 152 actions a period, 2 late in every other one: 1.3 % late in one period, none in the
        // next, about 0.7 % over any four.
        List<Integer> limits = new ArrayList<>();
        for (int round = 0; round < 12; round++) {
            period(app, 152, round % 2 == 0 ? 2 : 0, Duration.ofMillis(30));
            limits.add(app.operationLimit());
        }
        assertThat(limits).as("within the target, without room to rise: it holds").containsOnly(150);
    }

    @Test
    void aMeanWaitPastAQuarterOfTheTargetHolds_underAQuarterTheLimitRises() {
        BackplaneComponent app = afterAFallFrom(100);

        bindingPeriodWhereEveryActionWaits(app, Duration.ofMillis(12));
        assertThat(app.operationLimit()).as("500 actions, none late, but a mean of 12 ms: no room to rise").isEqualTo(50);
        bindingPeriodWhereEveryActionWaits(app, Duration.ofMillis(7));
        assertThat(app.operationLimit()).as("a mean of 7 ms, over a quarter of the 20 ms target: no room to rise").isEqualTo(50);
        bindingPeriodWhereEveryActionWaits(app, Duration.ofMillis(4));
        assertThat(app.operationLimit()).as("a mean of 4 ms: 50 + floor(sqrt(50))").isEqualTo(57);
    }

    /** Ten times: fills the limit (one more request rejected), waits {@code wait}, runs them all; then to the next tick. */
    private void bindingPeriodWhereEveryActionWaits(BackplaneComponent app, Duration wait) {
        for (int batch = 0; batch < 10; batch++) {
            fillAndRejectOne(app, 1);
            clock.advance(wait);
            backplane.stepper().runUntilIdle();
        }
        toTheNextTick(wait.multipliedBy(10));
    }

    @Test
    void aPeriodClearlyOverTheTargetCutsAtOnce_thoughTheWindowReachesBackOverCleanOnes() {
        BackplaneComponent app = start(ComponentSpec.named("app").withOperationLimit(150)
                .withQueueWaitTarget(Duration.ofMillis(20)).withMakeRoom(component -> false), 0);
        for (int round = 0; round < 4; round++) {
            period(app, 152, 0, Duration.ZERO);
        }
        assertThat(app.operationLimit()).isEqualTo(150);

        // Its late actions alone are more than the window may hold: 8 > 1 % of 608 (the last four
        // periods), though the mean is 1.6 ms.
        period(app, 152, 8, Duration.ofMillis(30));
        assertThat(app.operationLimit()).as("150 × sqrt(1 % × 608 / 8)").isEqualTo(130);

        // Its mean is over the target (capacity halved): cut at once, though the window is refilling.
        queueAndRun(app, 130, 1, Duration.ofMillis(40));
        toTheNextTick(Duration.ofMillis(40));
        assertThat(app.operationLimit()).as("halved").isEqualTo(65);
    }

    @Test
    void aLightLoadIsJudgedOverAtMostTenTicks() {
        BackplaneComponent app = afterAFallFrom(60);

        List<Integer> limits = new ArrayList<>();
        for (int round = 0; round < 10; round++) {
            period(app, app.operationLimit(), 0, Duration.ZERO);
            limits.add(app.operationLimit());
        }
        assertThat(limits).as("30 actions a tick: the window is full at the tenth tick, with 300")
                .containsExactly(30, 30, 30, 30, 30, 30, 30, 30, 30, 35);
    }

    @Test
    void theDebugTraceLogsEachTicksInputsAndDecision() {
        List<String> lines = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(record.getMessage());
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger trace = Logger.getLogger("io.appbackplane.QueueWaitTarget");
        Level level = trace.getLevel();
        trace.setLevel(Level.FINE);
        trace.addHandler(handler);
        try {
            BackplaneComponent app = start(ComponentSpec.named("app").withOperationLimit(100)
                    .withQueueWaitTarget(Duration.ofMillis(20)), 0);
            queueAndRun(app, 10, 1, Duration.ofMillis(40));
            toTheNextTick(Duration.ofMillis(40));
            assertThat(app.operationLimit()).isEqualTo(50);
        } finally {
            trace.removeHandler(handler);
            trace.setLevel(level);
        }
        assertThat(lines).containsExactly("component 'app', queue-wait target 20.0 ms: fall 100 -> 50; outstanding 0,"
                + " rejected no; priority 1: period 10 actions, mean wait 40.00 ms; window 1 ticks (filling), 10 actions, 10 late");
    }

    @Test
    void theAdmissionReserveHoldsWithinTheAdaptedLimit() {
        BackplaneComponent app = start(ComponentSpec.named("app").withOperationLimit(100)
                .withQueueWaitTarget(Duration.ofMillis(10)), 0.5);
        queueAndRun(app, 10, 0, Duration.ofMillis(20));
        toTheNextTick(Duration.ofMillis(20));
        assertThat(app.operationLimit()).isEqualTo(50);

        // Priority 3 of 4 may fill 50 - ceil(50 × 0.5 × 3/3) = 25 of the adapted limit; priority 0 all of it.
        assertThat(app.admissionThreshold(3)).isEqualTo(25);
        assertThat(app.admissionThreshold(0)).isEqualTo(50);
        for (int i = 0; i < 25; i++) {
            app.submit("bulk" + i, 3, ctx -> "bulk");
        }
        assertThatThrownBy(() -> app.submit("bulk-over", 3, ctx -> "bulk")).isInstanceOf(BackplaneRejectedException.class);
        app.submit("urgent", 0, ctx -> "urgent");
        assertThat(app.outstanding()).isEqualTo(26);
    }

    @ParameterizedTest
    @ValueSource(strings = {"PT0S", "PT-0.02S", "PT1H0.001S"})
    void aTargetOfZeroNegativeOrOverAnHourIsRejectedNamingIt(String target) {
        assertThatThrownBy(() -> ComponentSpec.named("app").withQueueWaitTarget(Duration.parse(target)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("queue-wait-target", "'app'", "allowed: a positive duration up to PT1H");
    }
}
