package io.appbackplane.internal;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;

/**
 * The scenario shape shared by the Lincheck tests: 2 threads of 3 operations, 2 before and 1 after,
 * {@code 10 × scale} scenarios; only the invocations per scenario differ per structure.
 *
 * <p>Model checking the largest harnesses (a work object with its queue and sweep, the ready
 * queues' selection) explores many interleavings per scenario; the default build runs {@link
 * #QUICK_SCENARIOS} scenarios of them ({@link #quickModelChecking}) so that the test command stays
 * short, and each test's {@code longRun} in the {@code stress} profile runs {@code 10 × 10}.
 */
public final class LincheckScenarios {

    private LincheckScenarios() {}

    public static StressOptions stress(int scale, int invocationsPerScenario) {
        return new StressOptions()
                .iterations(10 * scale)
                .invocationsPerIteration(invocationsPerScenario)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(1);
    }

    /** Scenarios of a quick model-checking pass (the default build's, for the costliest harnesses). */
    public static final int QUICK_SCENARIOS = 4;

    /** {@link #modelChecking} with {@link #QUICK_SCENARIOS} scenarios. */
    public static ModelCheckingOptions quickModelChecking(int invocationsPerScenario) {
        return modelChecking(1, invocationsPerScenario).iterations(QUICK_SCENARIOS);
    }

    public static ModelCheckingOptions modelChecking(int scale, int invocationsPerScenario) {
        return new ModelCheckingOptions()
                .iterations(10 * scale)
                .invocationsPerIteration(invocationsPerScenario)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(1);
    }
}
