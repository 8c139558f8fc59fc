package io.appbackplane.internal;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;

/**
 * The scenario shape shared by the Lincheck tests: 2 threads of 3 operations, 2 before and 1 after,
 * {@code 10 × scale} scenarios; only the invocations per scenario differ per structure.
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
