package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.BackplaneRejectedException.Reason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rule 19: a component with a queue-wait target adapts its admission limit at every real tick, on
 * a manual clock in step mode, so every wait is exact: over the target (its mean, or more than 1 %
 * of waits) the limit falls in proportion (at most by half); within it with room to spare (at most
 * 0.5 % late) and binding it rises, by its square root far under the last limit that proved too
 * high and by 1, 2, 3 ... near it, never above the configured operation limit; between the two it
 * holds; rule 11 holds within the adapted limit.
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
                .withQueueWaitTarget(Duration.ofMillis(40)), 0);

        // 4 of 100 actions wait 100 ms, the rest nothing: mean 4 ms, but the 99th percentile is 100 ms.
        for (int i = 0; i < 4; i++) {
            app.submit("early" + i, 1, ctx -> "done");
        }
        clock.advance(Duration.ofMillis(100));
        queueAndRun(app, 96, 1, Duration.ZERO);
        toTheNextTick(Duration.ofMillis(100));

        assertThat(app.operationLimit()).as("100 × sqrt(1 %% / 4 %%)").isEqualTo(50);

        // 1 of 100 late is within a 99th-percentile target but leaves no room: the limit, which
        // rejected a request, holds.
        app.submit("early", 1, ctx -> "done");
        clock.advance(Duration.ofMillis(100));
        queueAndRun(app, 49, 1, Duration.ZERO);
        fillAndRejectOne(app, 1);
        backplane.stepper().runUntilIdle();
        toTheNextTick(Duration.ofMillis(100));
        assertThat(app.operationLimit()).as("1 %% late: within the target, no room to rise").isEqualTo(50);

        // None late: it rises.
        queueAndRun(app, 50, 1, Duration.ZERO);
        fillAndRejectOne(app, 1);
        backplane.stepper().runUntilIdle();
        toTheNextTick(Duration.ZERO);
        assertThat(app.operationLimit()).as("50 + floor(sqrt(50))").isEqualTo(57);
    }

    @Test
    void nearTheLimitThatProvedTooHighItProbesOneStepThenTwoThenThree() {
        BackplaneComponent app = start(ComponentSpec.named("app").withOperationLimit(100)
                .withQueueWaitTarget(Duration.ofMillis(20)).withMakeRoom(component -> false), 0);
        queueAndRun(app, 10, 1, Duration.ofMillis(100));
        toTheNextTick(Duration.ofMillis(100));
        assertThat(app.operationLimit()).as("100 proved too high").isEqualTo(50);

        List<Integer> limits = new ArrayList<>();
        for (int round = 0; round < 8; round++) {
            fillAndRejectOne(app, 1);
            backplane.stepper().runUntilIdle();
            toTheNextTick(Duration.ZERO);
            limits.add(app.operationLimit());
        }
        // By the square root while under 90 (0.9 × 100), then 1, 2, up to the operation limit.
        assertThat(limits).containsExactly(57, 64, 72, 80, 88, 97, 98, 100);
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
        BackplaneComponent app = start(ComponentSpec.named("app").withOperationLimit(60)
                .withQueueWaitTarget(Duration.ofMillis(20)).withMakeRoom(component -> false), 0);
        queueAndRun(app, 10, 1, Duration.ofMillis(100));
        toTheNextTick(Duration.ofMillis(100));
        assertThat(app.operationLimit()).isEqualTo(30);

        // Under the target, but the limit held nothing back: unchanged.
        queueAndRun(app, 5, 1, Duration.ZERO);
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

        // Rejections each period under the target: up each tick, never past 60.
        for (int round = 0; round < 10; round++) {
            fillAndRejectOne(app, 1);
            backplane.stepper().runUntilIdle();
            toTheNextTick(Duration.ZERO);
        }
        assertThat(app.operationLimit()).isEqualTo(60);
    }

    @Test
    void aLimitNinetyPercentFullAtTheTickBindsToo() {
        BackplaneComponent app = start(ComponentSpec.named("app").withOperationLimit(100)
                .withQueueWaitTarget(Duration.ofMillis(20)), 0);
        queueAndRun(app, 10, 1, Duration.ofMillis(40));
        toTheNextTick(Duration.ofMillis(40));
        assertThat(app.operationLimit()).isEqualTo(50);

        queueAndRun(app, 5, 1, Duration.ZERO); // this period's wait: 0
        for (int i = 0; i < 45; i++) {
            app.submit("k" + i, 1, ctx -> "done"); // 45 of 50 outstanding at the tick
        }
        toTheNextTick(Duration.ZERO);

        assertThat(app.operationLimit()).isEqualTo(57); // 50 + floor(sqrt(50))
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
