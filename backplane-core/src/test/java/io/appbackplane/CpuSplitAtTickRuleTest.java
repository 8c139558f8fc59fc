package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Rule 5, last sentence: each period is charged only the running time inside
 * it. An action that runs across a real tick charges the part before the tick to the old period and
 * the rest to the new one. Step mode on a manual clock, so every instant is exact: limit 0.5 core,
 * period 1 s (500 ms of budget per period), the default 10 budget slices.
 */
class CpuSplitAtTickRuleTest {

    private final ManualClock clock = new ManualClock();
    private final List<String> log = new ArrayList<>();
    private final Backplane backplane = Backplane.builder("split")
            .policy(BackplanePolicy.builder().cpuLimit(CpuLimit.ofCores(0.5)).integrationPeriod(Duration.ofSeconds(1)).build())
            .clock(clock)
            .stepMode()
            .build();
    private final BackplaneComponent app = backplane.install(ComponentSpec.named("app"));

    private Action<String> work(String label, Duration cost) {
        return ctx -> {
            log.add(label + "@" + clock.nanoTime() / 1_000_000);
            clock.advance(cost);
            return label;
        };
    }

    private BackplaneStatistics.Cpu cpu() {
        return backplane.statistics().cpu();
    }

    @Test
    void rule5_anActionEndingAtTheTick_chargesTheOldPeriod_soTheNewPeriodStartsWithItsWholeBudget() {
        clock.advance(Duration.ofMillis(400));
        app.submit("a", 1, work("a1", Duration.ofMillis(600))); // runs 400..1000, across nothing but up to the tick
        app.submit("b", 1, work("b1", Duration.ofMillis(10)));

        assertThat(backplane.stepper().runNext().objectKey()).isEqualTo("a");
        assertThat(cpu().usedThisPeriod()).as("the new period ran nothing yet").isZero();
        assertThat(cpu().usedLastPeriod()).isEqualTo(Duration.ofMillis(600));

        assertThat(backplane.stepper().runNext().objectKey()).as("b1 runs at once").isEqualTo("b");
        assertThat(log).containsExactly("a1@400", "b1@1000");
    }

    @Test
    void rule5_anActionAcrossTheTick_chargesEachPeriodItsOwnPart() {
        clock.advance(Duration.ofMillis(900));
        app.submit("a", 1, work("a1", Duration.ofMillis(600))); // runs 900..1500: 100 ms old, 500 ms new
        app.submit("b", 1, work("b1", Duration.ofMillis(10)));

        assertThat(backplane.stepper().runNext().objectKey()).isEqualTo("a");
        assertThat(cpu().usedLastPeriod()).as("the old period's part").isEqualTo(Duration.ofMillis(100));
        assertThat(cpu().usedThisPeriod()).as("the new period's part: its whole budget").isEqualTo(Duration.ofMillis(500));

        assertThat(backplane.stepper().runNext().kind()).as("the new period's budget is spent").isEqualTo(Stepper.Kind.THROTTLED);
        clock.advance(Duration.ofMillis(500)); // the next real tick, at 2000 ms
        assertThat(backplane.stepper().runNext().objectKey()).isEqualTo("b");
        assertThat(log).containsExactly("a1@900", "b1@2000");
    }
}
