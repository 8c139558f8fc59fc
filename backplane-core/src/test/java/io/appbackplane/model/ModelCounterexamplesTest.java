package io.appbackplane.model;

import static io.appbackplane.model.ModelBasedSchedulingPropertyTest.assertSameTrace;

import org.junit.jupiter.api.Test;

/**
 * Counterexamples the step-mode property ({@link ModelBasedSchedulingPropertyTest}) found, shrunk,
 * each kept as the scenario it printed: the scheduler's trace must be the model's.
 */
class ModelCounterexamplesTest {

    /**
     * Issue 13 defect 2. a8 runs 0..10 ms across the real ticks at 5 and 10 ms (a 5 ms period of
     * 2.5 ms budget). Each period is charged only the running time inside it, so the period that
     * starts at 10 ms has used nothing and a7 starts at 10 ms; it started at 15 ms when the whole
     * 10 ms was charged to the period in which a8 ended.
     */
    @Test
    void anActionRunningAcrossRealTicksChargesEachPeriodOnlyItsOwnPart() {
        assertSameTrace(Scenario.builder(2)
                .cpu(500, 5, 1) // millicores, period ms, slices
                .submit(0, "a7", "k0", 1, 1)
                .submit(0, "a8", "k3", 0, 10)
                .build());
    }

    /**
     * Issue 13 defect 2, as first found: a12 runs 70..80 ms and ends at the real tick; the new
     * period (40 ms budget in 2 slices of 20 ms) starts with nothing used, so after a1 and a2
     * (10 ms) a9 starts at 90 ms. It started at 120 ms, the next slice, when a12's 10 ms were
     * charged to the new period.
     */
    @Test
    void anActionEndingAtARealTickChargesNothingToTheNewPeriod() {
        assertSameTrace(Scenario.builder(2)
                .cpu(500, 80, 2) // millicores, period ms, slices
                .submit(70, "a12", "k0", 0, 10)
                .submit(70, "a1", "k0", 0, 3)
                .submit(70, "a2", "k0", 0, 7)
                .submit(70, "a9", "k0", 0, 0)
                .build());
    }
}
