package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.Stepper.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rules 4 and 5 in step mode on a manual clock: quotas and CPU use reset at each real tick, and the
 * CPU budget per integration period (whole, or released in slices). An action "uses" CPU time by
 * moving the manual clock forward while it runs.
 */
class CpuBudgetRuleTest {

    private static final Duration MS_100 = Duration.ofMillis(100);

    private final ManualClock clock = new ManualClock();
    private final List<String> ran = new ArrayList<>();
    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private BackplaneComponent start(BackplanePolicy policy) {
        backplane = Backplane.builder("test").policy(policy).clock(clock).stepMode().build();
        return backplane.install(ComponentSpec.named("app"));
    }

    private static BackplanePolicy halfACore(int slices) {
        return BackplanePolicy.builder().priorities(3).cpuLimit(0.5).cpuBudgetSlices(slices).build();
    }

    /** Queues {@code count} actions to {@code key} at {@code priority}, each using {@code runTime}. */
    private void submit(BackplaneComponent app, String key, int priority, int count, Duration runTime) {
        for (int i = 1; i <= count; i++) {
            String label = key + i;
            app.submit(key, priority, ctx -> {
                clock.advance(runTime);
                ran.add(label);
                return label;
            });
        }
    }

    private Stepper.Step step() {
        return backplane.stepper().runNext();
    }

    private BackplaneStatistics.Cpu cpu() {
        return backplane.statistics().cpu();
    }

    private long now() {
        return Duration.ofNanos(clock.nanoTime()).toMillis();
    }

    @Test
    void rule5_whenTheBudgetIsUsedUpNoNewActionStartsUntilTheNextRealTick() {
        BackplaneComponent app = start(halfACore(1));
        submit(app, "bulk", 1, 8, MS_100);
        assertThat(cpu().budgetPerPeriod()).isEqualTo(Duration.ofMillis(500));

        for (int i = 0; i < 5; i++) {
            assertThat(step().kind()).isEqualTo(Kind.RAN);
        }
        assertThat(now()).isEqualTo(500);
        assertThat(cpu().usedThisPeriod()).isEqualTo(Duration.ofMillis(500));
        assertThat(backplane.statistics().priorities().get(1).usedThisPeriod()).isEqualTo(5);

        // Work is queued, but the 500 ms budget of this period is spent.
        assertThat(step()).isEqualTo(Stepper.Step.THROTTLED);
        assertThat(backplane.statistics().readyObjects()).isEqualTo(1);
        assertThat(backplane.statistics().outstanding()).isEqualTo(3);
        clock.advance(Duration.ofMillis(200));
        assertThat(step()).isEqualTo(Stepper.Step.THROTTLED);
        assertThat(backplane.stepper().runUntilIdle()).isZero();
        assertThat(cpu().throttledTime()).isEqualTo(Duration.ofMillis(200)); // the open interval counts
        assertThat(ran).containsExactly("bulk1", "bulk2", "bulk3", "bulk4", "bulk5");

        clock.advance(Duration.ofMillis(300)); // t = 1 s: the real tick
        BackplaneStatistics stats = backplane.statistics();
        assertThat(stats.realTicks()).isEqualTo(1);
        assertThat(stats.cpu().usedLastPeriod()).isEqualTo(Duration.ofMillis(500));
        assertThat(stats.cpu().usedThisPeriod()).isZero();
        assertThat(stats.cpu().throttledTime()).isEqualTo(Duration.ofMillis(500)); // 500 ms .. 1 s
        assertThat(stats.priorities().get(1).usedThisPeriod()).isZero(); // rule 4: quotas replenished

        assertThat(step()).isEqualTo(new Stepper.Step(Kind.RAN, "app", "bulk", 1));
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(2);
        assertThat(ran).hasSize(8);
        assertThat(cpu().usedThisPeriod()).isEqualTo(Duration.ofMillis(300));
        assertThat(cpu().throttledTime()).isEqualTo(Duration.ofMillis(500)); // closed, not growing
    }

    @Test
    void rule5_anActionAlreadyRunningFinishesAndItsWholeRunTimeIsCharged() {
        BackplaneComponent app = start(halfACore(1));
        submit(app, "a", 1, 4, MS_100);
        backplane.stepper().runUntilIdle();
        submit(app, "long", 1, 1, Duration.ofMillis(250));
        submit(app, "b", 1, 1, MS_100);

        // a1..a4 used 400 ms; "long" starts with 100 ms of budget left and runs 250 ms anyway.
        assertThat(step()).isEqualTo(new Stepper.Step(Kind.RAN, "app", "long", 1));
        assertThat(ran).containsExactly("a1", "a2", "a3", "a4", "long1");
        assertThat(now()).isEqualTo(650);
        assertThat(cpu().usedThisPeriod()).isEqualTo(Duration.ofMillis(650));
        assertThat(step()).isEqualTo(Stepper.Step.THROTTLED);

        clock.advance(Duration.ofMillis(350)); // the real tick: the overrun does not carry over
        assertThat(cpu().usedLastPeriod()).isEqualTo(Duration.ofMillis(650));
        assertThat(cpu().throttledTime()).isEqualTo(Duration.ofMillis(350));
        assertThat(step()).isEqualTo(new Stepper.Step(Kind.RAN, "app", "b", 1));
        assertThat(cpu().usedThisPeriod()).isEqualTo(MS_100);
    }

    @Test
    void rule5_aBudgetReleasedInSlicesResumesWorkAtTheNextSliceNotTheNextTickAndStillCapsThePeriod() {
        BackplaneComponent app = start(halfACore(10)); // 50 ms released every 100 ms
        submit(app, "bulk", 2, 20, MS_100);

        assertThat(step().kind()).isEqualTo(Kind.RAN); // t 0 → 100 ms, used 100 ms of 100 released
        assertThat(step()).isEqualTo(Stepper.Step.THROTTLED);
        clock.advance(Duration.ofMillis(50));
        assertThat(step()).isEqualTo(Stepper.Step.THROTTLED); // 150 ms: still slice 2
        clock.advance(Duration.ofMillis(50));
        assertThat(step().kind()).isEqualTo(Kind.RAN); // 200 ms: slice 3 released, long before the tick
        assertThat(backplane.statistics().realTicks()).isZero();
        assertThat(now()).isEqualTo(300);

        // Keep stepping, moving time on by 50 ms whenever throttled, up to just before the tick.
        List<Long> startedAt = new ArrayList<>();
        while (now() < 950) {
            long t = now();
            if (step().ran()) {
                startedAt.add(t);
            } else {
                clock.advance(Duration.ofMillis(50));
            }
        }
        assertThat(startedAt).containsExactly(400L, 600L, 800L);
        assertThat(ran).hasSize(5);
        assertThat(cpu().usedThisPeriod()).isEqualTo(Duration.ofMillis(500)); // the hard cap per period
        // Throttled 100..200, 300..400, 500..600, 700..800 and 900..950 (still open).
        assertThat(cpu().throttledTime()).isEqualTo(Duration.ofMillis(450));
        assertThat(step()).isEqualTo(Stepper.Step.THROTTLED);

        clock.advance(Duration.ofMillis(50)); // the real tick
        assertThat(backplane.statistics().realTicks()).isEqualTo(1);
        assertThat(cpu().usedLastPeriod()).isEqualTo(Duration.ofMillis(500));
        assertThat(step().kind()).isEqualTo(Kind.RAN);
        assertThat(ran).hasSize(6);
    }

    @Test
    void rule5_withOneSliceABackplaneThatSpendsItsBudgetEarlyStallsForTheRestOfThePeriod() {
        BackplaneComponent app = start(halfACore(1));
        submit(app, "bulk", 2, 20, MS_100);
        List<Long> startedAt = new ArrayList<>();
        while (now() < 950) {
            long t = now();
            if (step().ran()) {
                startedAt.add(t);
            } else {
                clock.advance(Duration.ofMillis(50));
            }
        }
        assertThat(startedAt).containsExactly(0L, 100L, 200L, 300L, 400L);
        assertThat(cpu().usedThisPeriod()).isEqualTo(Duration.ofMillis(500));
        assertThat(cpu().throttledTime()).isEqualTo(Duration.ofMillis(450));
    }

    @Test
    void rule5_aTurnOfSeveralActionsOnOneObjectStopsWhenTheBudgetIsUsedUp() {
        BackplaneComponent app = start(BackplanePolicy.builder()
                .priorities(3)
                .cpuLimit(0.5)
                .cpuBudgetSlices(1)
                .actionsPerTurn(10)
                .build());
        submit(app, "hot", 1, 8, MS_100);
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(5);
        assertThat(step()).isEqualTo(Stepper.Step.THROTTLED);
        assertThat(cpu().usedThisPeriod()).isEqualTo(Duration.ofMillis(500));
        clock.advance(Duration.ofMillis(500));
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(3);
        assertThat(ran).hasSize(8);
    }

    @Test
    void rule5_aCpuLimitChangedAtRunTimeTakesEffectAtOnceForTheCurrentPeriod() {
        BackplaneComponent app = start(halfACore(1));
        submit(app, "bulk", 1, 10, MS_100);
        for (int i = 0; i < 3; i++) {
            assertThat(step().kind()).isEqualTo(Kind.RAN);
        }
        assertThat(cpu().usedThisPeriod()).isEqualTo(Duration.ofMillis(300));

        backplane.setCpuLimit(CpuLimit.parse("200m")); // already over the new budget
        assertThat(backplane.policy().cpuLimit()).isEqualTo(CpuLimit.ofMillicores(200));
        assertThat(cpu().limit()).isEqualTo(CpuLimit.ofMillicores(200));
        assertThat(cpu().budgetPerPeriod()).isEqualTo(Duration.ofMillis(200));
        assertThat(step()).isEqualTo(Stepper.Step.THROTTLED);

        backplane.setCpuLimit(CpuLimit.ofCores(0.6)); // 600 ms: 300 ms more in this period
        assertThat(step().kind()).isEqualTo(Kind.RAN);
        assertThat(step().kind()).isEqualTo(Kind.RAN);
        assertThat(step().kind()).isEqualTo(Kind.RAN);
        assertThat(step()).isEqualTo(Stepper.Step.THROTTLED);
        assertThat(cpu().usedThisPeriod()).isEqualTo(Duration.ofMillis(600));

        backplane.setCpuLimit(CpuLimit.UNLIMITED);
        assertThat(cpu().budgetPerPeriod()).isNull();
        assertThat(step().kind()).isEqualTo(Kind.RAN);
        assertThat(ran).hasSize(7);
        assertThat(backplane.statistics().realTicks()).isZero();
        // Each throttled interval ended when the limit was raised (at 300 ms) or lifted (at 600 ms).
        assertThat(cpu().throttledTime()).isZero();
    }

    @Test
    void rule4_eachRealTickReplenishesAllQuotasAndResetsCpuUse() {
        BackplaneComponent app = start(BackplanePolicy.builder()
                .priorities(3)
                .quotas(BackplanePolicy.UNLIMITED_QUOTA, 2, 2)
                .build());
        submit(app, "A", 1, 3, MS_100);
        submit(app, "B", 2, 1, MS_100);

        assertThat(step().objectKey()).isEqualTo("A");
        assertThat(step().objectKey()).isEqualTo("A");
        BackplaneStatistics before = backplane.statistics();
        assertThat(before.priorities().get(1).usedThisPeriod()).isEqualTo(2); // priority 1's quota spent
        assertThat(before.cpu().usedThisPeriod()).isEqualTo(Duration.ofMillis(200));
        assertThat(before.realTicks()).isZero();

        clock.advance(Duration.ofMillis(800)); // t = 1 s
        BackplaneStatistics after = backplane.statistics();
        assertThat(after.realTicks()).isEqualTo(1);
        assertThat(after.priorities()).extracting(PriorityStatistics::usedThisPeriod).containsExactly(0, 0, 0);
        assertThat(after.cpu().usedThisPeriod()).isZero();
        assertThat(after.cpu().usedLastPeriod()).isEqualTo(Duration.ofMillis(200));

        // Replenished, priority 1 is served first again: A3 before B1 (without the tick B1 would come first).
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(2);
        assertThat(ran).containsExactly("A1", "A2", "A3", "B1");
        assertThat(backplane.statistics().virtualTicks()).isZero();
        assertThat(cpu().usedThisPeriod()).isEqualTo(Duration.ofMillis(200));

        clock.advance(Duration.ofSeconds(3)); // ticks at 2, 3 and 4 s
        assertThat(backplane.statistics().realTicks()).isEqualTo(4);
        assertThat(cpu().usedLastPeriod()).isZero(); // the period 3 s .. 4 s used nothing
        assertThat(cpu().usedThisPeriod()).isZero();
    }

    @Test
    void rule4_withoutARealTickASpentQuotaYieldsToTheNextPriority() {
        // The control case of the test above: the same scripted mix, no tick in between.
        BackplaneComponent app = start(BackplanePolicy.builder()
                .priorities(3)
                .quotas(BackplanePolicy.UNLIMITED_QUOTA, 2, 2)
                .build());
        submit(app, "A", 1, 3, MS_100);
        submit(app, "B", 2, 1, MS_100);
        backplane.stepper().runUntilIdle();
        assertThat(ran).containsExactly("A1", "A2", "B1", "A3");
        assertThat(backplane.statistics().realTicks()).isZero();
        assertThat(backplane.statistics().virtualTicks()).isEqualTo(1);
    }
}
