package io.appbackplane.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.Action;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneStatistics;
import io.appbackplane.ComponentSpec;
import io.appbackplane.CpuLimit;
import io.appbackplane.ManualClock;
import io.appbackplane.PriorityStatistics;
import io.appbackplane.Stepper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The worked example of docs/scheduling.md, run in step mode on a manual clock: every number and
 * order the page shows is asserted here, and the page shows the marked regions verbatim.
 */
class SchedulingWorkedExampleTest {

    @Test
    void quotasVirtualTicksCpuSlicesAndTheRealTick() {
        // docs:scheduling:worked-example-setup BEGIN
        ManualClock clock = new ManualClock();
        BackplanePolicy policy = BackplanePolicy.builder()
                .priorities(3)
                .quotas(BackplanePolicy.UNLIMITED_QUOTA, 2, 1) // actions per (virtual) period: unlimited, 2, 1
                .cpuLimit(CpuLimit.parse("500m"))             // 500 ms of worker CPU time per 1 s period
                .cpuBudgetSlices(5)                           // released as 100 ms more every 200 ms
                .build();
        Backplane backplane = Backplane.builder("example").policy(policy).clock(clock).stepMode().build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));

        List<String> log = new ArrayList<>();
        // An action that logs when it started and "uses" 50 ms of CPU by moving the manual clock.
        Function<String, Action<String>> work = label -> ctx -> {
            log.add(label + "@" + clock.nanoTime() / 1_000_000);
            clock.advance(Duration.ofMillis(50));
            return label;
        };
        for (int i = 1; i <= 3; i++) {
            app.submit("A", 1, work.apply("A" + i));                 // order A, priority 1
            app.submit("B", 1, work.apply("B" + i));                 // order B, priority 1
        }
        for (int i = 1; i <= 4; i++) {
            app.submit("R", 2, work.apply("R" + i));                 // re-indexing, priority 2
        }
        // docs:scheduling:worked-example-setup END

        // docs:scheduling:worked-example-run BEGIN
        Stepper stepper = backplane.stepper();
        assertThat(stepper.runUntilIdle()).isEqualTo(2);             // t = 0 and 50; then slice 1's 100 ms are used
        assertThat(stepper.runNext()).isEqualTo(Stepper.Step.THROTTLED);
        app.submit("U", 0, work.apply("U1"));                        // urgent work arrives at t = 100
        for (int slice = 2; slice <= 5; slice++) {                   // t = 200, 400, 600, 800
            clock.advance(Duration.ofMillis(100));                   // the next slice: 100 ms more budget
            assertThat(stepper.runUntilIdle()).isEqualTo(2);         // two 50 ms actions, then throttled again
        }
        clock.advance(Duration.ofMillis(100));                       // t = 1000: the real tick
        assertThat(stepper.runUntilIdle()).isEqualTo(1);

        assertThat(log).containsExactly(
                "A1@0", "B1@50",      // slice 1: priority 1 uses its quota of 2, round robin A, B
                "U1@200", "R1@250",   // slice 2: urgent first; then priority 2, as priority 1's quota is spent
                "A2@400", "B2@450",   // slice 3: all quotas with work spent → virtual tick 1
                "R2@600", "A3@650",   // slice 4: R2 spends priority 2's quota → virtual tick 2 → A3
                "B3@800", "R3@850",   // slice 5: now the period's 500 ms are used up
                "R4@1000");           // the real tick replenished every quota and reset CPU use
        BackplaneStatistics stats = backplane.statistics();
        assertThat(stats.realTicks()).isEqualTo(1);
        assertThat(stats.virtualTicks()).isEqualTo(2);
        assertThat(stats.cpu().usedLastPeriod()).isEqualTo(Duration.ofMillis(500));
        assertThat(stats.cpu().usedThisPeriod()).isEqualTo(Duration.ofMillis(50));
        // Ready work waited for budget 100..200, 300..400, 500..600, 700..800 and 900..1000 ms.
        assertThat(stats.cpu().throttledTime()).isEqualTo(Duration.ofMillis(500));
        assertThat(stats.priorities()).extracting(PriorityStatistics::usedThisPeriod).containsExactly(0, 0, 1);
        backplane.close();
        // docs:scheduling:worked-example-run END
    }
}
