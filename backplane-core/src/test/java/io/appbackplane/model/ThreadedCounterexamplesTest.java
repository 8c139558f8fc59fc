package io.appbackplane.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Counterexamples the threaded property ({@link ThreadedSchedulingPropertyTest}) found, shrunk,
 * each kept as the scenario it printed, on the number of workers it failed with: every check of
 * {@link ThreadedRun} must hold.
 */
class ThreadedCounterexamplesTest {

    /**
     * Issue 13 defect 1. The property shrank it to {@code submit(0, "a1", "k2", 1, 1).submit(0,
     * "a2", "k2", 0, 1)} on 3 workers, which fails only when a2 arrives before a worker took k2.
     * Here both workers are busy first, so it always does: k2 is ready at priority 5 when a2
     * arrives at priority 1, moves to priority 1's queue and leaves a stale entry in priority 5's.
     * Once all had run, the workers never parked (the park check saw the stale entry; select never
     * removed it).
     */
    @Test
    void workersParkAfterAnObjectsPriorityRose() {
        Scenario scenario = Scenario.builder(6).period(1000)
                .submit(0, "busy1", "k0", 0, 12)
                .submit(0, "busy2", "k1", 0, 12)
                .submit(2, "a1", "k2", 5, 1)
                .submit(4, "a2", "k2", 1, 1)
                .build();
        assertThat(ThreadedRun.check(scenario, 2)).isEmpty();
    }
}
