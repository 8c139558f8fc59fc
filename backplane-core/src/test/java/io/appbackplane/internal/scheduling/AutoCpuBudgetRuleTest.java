package io.appbackplane.internal.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ComponentSpec;
import io.appbackplane.CpuLimit;
import io.appbackplane.CpuQuota;
import io.appbackplane.ManualClock;
import io.appbackplane.Stepper;
import io.appbackplane.Stepper.Kind;
import io.appbackplane.internal.DefaultBackplane;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rule 5 under an {@code auto} CPU limit, in step mode on a manual clock: the most urgent priority
 * starts when the released budget is spent (and is charged for it), every less urgent priority waits
 * for budget as under any limit; a fixed limit still holds every priority. The {@code auto} limit
 * follows a quota given here (a tenth of a core: 0.095 cores aimed at, released as 0.95 ms every
 * 10 ms of a 1 s period), not this machine's cgroup.
 */
class AutoCpuBudgetRuleTest {

    private final ManualClock clock = new ManualClock();
    private final List<String> ran = new ArrayList<>();
    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private BackplaneComponent start(BackplanePolicy.Builder policy, boolean auto) {
        backplane = Backplane.builder("test").policy(policy.priorities(3).build()).clock(clock).stepMode().build();
        if (auto) {
            cpu().follow(new AutoCpuLimit(() -> Optional.of(new CpuQuota(0.1, "test")), () -> 0, q -> Optional.empty(),
                    clock.nanoTime()));
            assertThat(cpu().budgetNanos()).isEqualTo(95_000_000L);
            assertThat(cpu().slices()).isEqualTo(100);
        }
        return backplane.install(ComponentSpec.named("app"));
    }

    private CpuBudget cpu() {
        return ((DefaultBackplane) backplane).scheduler().limits().cpuBudget();
    }

    private void submit(BackplaneComponent app, String key, int priority, int count, long runMillis) {
        for (int i = 1; i <= count; i++) {
            String label = key + i;
            app.submit(key, priority, ctx -> {
                clock.advance(Duration.ofMillis(runMillis));
                ran.add(label);
                return label;
            });
        }
    }

    private Stepper.Step step() {
        return backplane.stepper().runNext();
    }

    private long nowMs() {
        return Duration.ofNanos(clock.nanoTime()).toMillis();
    }

    @Test
    void rule5_underAuto_theMostUrgentPriorityStartsWhenTheSliceIsSpent_lessUrgentWorkWaitsForBudget() {
        BackplaneComponent app = start(BackplanePolicy.builder(), true);
        submit(app, "bulk", 2, 3, 5);

        assertThat(step().kind()).isEqualTo(Kind.RAN); // bulk1, 0 → 5 ms: 5 ms used of the 0.95 ms released
        assertThat(step()).isEqualTo(Stepper.Step.THROTTLED);
        submit(app, "urgent", 0, 1, 1);

        assertThat(step()).as("urgent work does not wait for the next slice")
                .isEqualTo(new Stepper.Step(Kind.RAN, "app", "urgent", 0));
        assertThat(nowMs()).isEqualTo(6);
        assertThat(cpu().usedThisPeriod()).as("and is charged").isEqualTo(6_000_000L);
        assertThat(step()).as("bulk still waits").isEqualTo(Stepper.Step.THROTTLED);

        // The 6 ms used are released at 60 ms (slice 7: 7 × 0.95 ms): bulk starts again there, not at 50 ms.
        clock.advance(Duration.ofMillis(44));
        assertThat(step()).isEqualTo(Stepper.Step.THROTTLED);
        clock.advance(Duration.ofMillis(10));
        assertThat(step()).isEqualTo(new Stepper.Step(Kind.RAN, "app", "bulk", 2));
        assertThat(ran).containsExactly("bulk1", "urgent1", "bulk2");
        assertThat(backplane.statistics().cpu().throttledTime()).as("bulk waited from 5 to 60 ms, also while urgent ran")
                .isEqualTo(Duration.ofMillis(55));
    }

    @Test
    void rule5_underAFixedLimit_theMostUrgentPriorityWaitsForBudgetToo() {
        BackplaneComponent app = start(BackplanePolicy.builder().cpuLimit(CpuLimit.parse("95m")).cpuBudgetSlices(100), false);
        submit(app, "bulk", 2, 3, 5);

        assertThat(step().kind()).isEqualTo(Kind.RAN);
        submit(app, "urgent", 0, 1, 1);

        assertThat(step()).isEqualTo(Stepper.Step.THROTTLED);
        clock.advance(Duration.ofMillis(45)); // 50 ms: 5.7 ms released (slice 6), 5 ms used
        assertThat(step()).isEqualTo(new Stepper.Step(Kind.RAN, "app", "urgent", 0));
    }

    @Test
    void rule5_underAuto_severalUrgentObjectsRunWithoutBudget_andWithoutAVirtualTickOnceTheirQuotaIsSpent() {
        BackplaneComponent app = start(BackplanePolicy.builder().quotas(2, 10, 10), true);
        submit(app, "bulk", 2, 1, 5);
        assertThat(step().kind()).isEqualTo(Kind.RAN); // the first slice's budget spent
        for (String key : List.of("a", "b", "c")) {
            submit(app, key, 0, 1, 1);
        }

        assertThat(step()).isEqualTo(new Stepper.Step(Kind.RAN, "app", "a", 0));
        assertThat(step()).isEqualTo(new Stepper.Step(Kind.RAN, "app", "b", 0));
        // Priority 0's quota of 2 is spent; without budget no virtual tick replenishes it (rule 6).
        assertThat(step()).isEqualTo(Stepper.Step.THROTTLED);
        assertThat(backplane.statistics().virtualTicks()).isZero();

        clock.advance(Duration.ofMillis(63)); // 70 ms: 7.6 ms released (slice 8), 7 ms used
        assertThat(step()).isEqualTo(new Stepper.Step(Kind.RAN, "app", "c", 0));
        assertThat(backplane.statistics().virtualTicks()).isEqualTo(1);
    }

    @Test
    void rule5_underAuto_aTurnAtTheMostUrgentPriorityGoesOn_andAParkedWorkerLooksAgainForIt() {
        BackplaneComponent app = start(BackplanePolicy.builder(), true);
        submit(app, "bulk", 2, 2, 5);
        assertThat(step().kind()).isEqualTo(Kind.RAN);
        Scheduler scheduler = ((DefaultBackplane) backplane).scheduler();
        long now = clock.nanoTime();

        assertThat(scheduler.limits().cpuAllowsStart(now, 0)).isTrue();
        assertThat(scheduler.limits().cpuAllowsStart(now, 1)).isFalse();
        assertThat(scheduler.work().hasRunnableWork()).as("only bulk ready: park until the next slice").isFalse();
        submit(app, "urgent", 0, 1, 1);
        assertThat(scheduler.work().hasRunnableWork()).as("urgent work ready: look again").isTrue();
    }

    @Test
    void rule5_underAFixedLimit_noPriorityMayStartOnceTheSliceIsSpent() {
        BackplaneComponent app = start(BackplanePolicy.builder().cpuLimit(CpuLimit.parse("95m")).cpuBudgetSlices(100), false);
        submit(app, "bulk", 2, 2, 5);
        assertThat(step().kind()).isEqualTo(Kind.RAN);
        Scheduler scheduler = ((DefaultBackplane) backplane).scheduler();
        submit(app, "urgent", 0, 1, 1);

        assertThat(scheduler.limits().cpuAllowsStart(clock.nanoTime(), 0)).isFalse();
        assertThat(scheduler.work().hasRunnableWork()).isFalse();
    }
}
