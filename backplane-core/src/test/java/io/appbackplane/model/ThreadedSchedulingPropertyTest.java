package io.appbackplane.model;

import java.util.List;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The threaded counterpart of {@link ModelBasedSchedulingPropertyTest}: the same generated
 * workloads on real worker threads (1-3 of them, system clock), checked for what must hold
 * whatever the threads' timing ({@link ThreadedRun} lists the checks). A failure prints the seed
 * ({@code -Dbackplane.model.seed=N} reruns from it), the scenario and what was violated.
 */
class ThreadedSchedulingPropertyTest {

    static final int TRIES = 150;
    static final int STRESS_TRIES = 2_000;

    @Test
    void realWorkersKeepTheRulesWhateverTheTiming() {
        check(TRIES);
    }

    @Test
    @Tag("stress")
    void realWorkersKeepTheRulesWhateverTheTiming_manyTries() {
        check(STRESS_TRIES);
    }

    private static void check(int tries) {
        long base = Long.getLong("backplane.model.seed", ThreadLocalRandom.current().nextLong());
        for (int i = 0; i < tries; i++) {
            long seed = base + i;
            Scenario scenario = ScenarioGenerator.generate(seed);
            int workers = 1 + new Random(seed).nextInt(3);
            List<String> violations = ThreadedRun.check(scenario, workers);
            if (!violations.isEmpty()) {
                // Timing decides whether a smaller scenario fails again, so shrinking tries a bounded number.
                Scenario shrunk = ScenarioShrinker.shrink(scenario, s -> !ThreadedRun.check(s, workers).isEmpty(), 200);
                throw new AssertionError("on " + workers + " workers, seed " + seed + " (rerun: -Dbackplane.model.seed="
                        + seed + "):\n" + scenario + "\nviolated:\n  " + String.join("\n  ", violations)
                        + "\nshrunk (a scenario that failed too, once):\n" + shrunk);
            }
        }
    }
}
