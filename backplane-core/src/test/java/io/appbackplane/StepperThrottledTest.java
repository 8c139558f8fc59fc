package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The step driver under a CPU limit, on the workers' own decision path: when work waits only for CPU budget a
 * step says THROTTLED, never IDLE, also in the middle of a turn of several actions, and says when
 * the budget comes back. Limit 0.5 core, period 1 s, 10 slices: 50 ms more budget every 100 ms.
 */
class StepperThrottledTest {

    private final ManualClock clock = new ManualClock();
    private final Backplane backplane = Backplane.builder("throttled-steps")
            .policy(BackplanePolicy.builder().cpuLimit(CpuLimit.ofCores(0.5)).cpuBudgetSlices(10).actionsPerTurn(4).build())
            .clock(clock)
            .stepMode()
            .build();
    private final BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
    private final Stepper stepper = backplane.stepper();

    private Action<String> costing(long millis) {
        return ctx -> {
            clock.advance(Duration.ofMillis(millis));
            return "done";
        };
    }

    @Test
    void workWaitingOnlyForBudget_isThrottled_inTheMiddleOfATurn_andSaysWhenBudgetComesBack() {
        for (int i = 0; i < 3; i++) {
            app.submit("o", 1, costing(60)); // one object, a turn of up to 4 actions
        }
        assertThat(stepper.runNext().ran()).isTrue(); // 0..60 ms: 60 ms used, 50 released
        assertThat(stepper.throttledFor()).isEmpty();

        assertThat(stepper.runNext()).isEqualTo(Stepper.Step.THROTTLED);
        assertThat(stepper.throttledFor()).contains(Duration.ofMillis(40)); // the second slice, at 100 ms

        clock.advance(stepper.throttledFor().orElseThrow());
        assertThat(stepper.runNext().ran()).isTrue(); // 100..160 ms: 120 used, 100 released
        assertThat(stepper.runNext()).isEqualTo(Stepper.Step.THROTTLED);
        assertThat(stepper.throttledFor()).contains(Duration.ofMillis(40));
    }

    @Test
    void noWorkAtAll_isIdle_notThrottled() {
        app.submit("o", 1, costing(60));
        stepper.runNext();
        assertThat(stepper.runNext()).isEqualTo(Stepper.Step.IDLE);
        assertThat(stepper.throttledFor()).isEmpty();
    }
}
